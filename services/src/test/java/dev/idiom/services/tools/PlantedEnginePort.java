package dev.idiom.services.tools;

import dev.idiom.consistency.ConflictPolicy;
import dev.idiom.consistency.ToolDirectory;
import dev.idiom.wrappers.AnnotationTool;
import java.util.List;
import java.util.Optional;

/** Planted for the architecture test: the application implementing a port the engine calls up through. Never used. */
final class PlantedEnginePort implements ToolDirectory {
    @Override
    public AnnotationTool open(String name) {
        throw new UnsupportedOperationException();
    }

    @Override
    public List<String> names() {
        return List.of();
    }

    @Override
    public Optional<AnnotationTool> open(String kind, String account) {
        return Optional.empty();
    }

    @Override
    public ConflictPolicy policy(String kind, String account) {
        return ConflictPolicy.PREFER_IDIOM;
    }
}
