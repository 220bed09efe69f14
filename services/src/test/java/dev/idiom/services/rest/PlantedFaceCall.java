package dev.idiom.services.rest;

/** Planted: a REST class calling into the web face (which mounts REST): a cycle. Never part of the real scan. */
public final class PlantedFaceCall {
    public static String callsWeb() {
        return dev.idiom.services.web.PlantedFaceCallBack.name();
    }
}
