package dev.idiom.events;

/**
 * Told of each append a store committed, after the commit (never before), on the writer's thread:
 * how this node's cache, search index and consistency engine follow its writes without the write
 * path calling them. A listener is quick and never fails the write: what it throws is logged.
 */
@FunctionalInterface
public interface CommitListener {
    void committed(AppendResult result);
}
