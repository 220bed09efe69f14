package dev.idiom.services.web;

/** Planted: the web face calling REST back, closing the cycle {@code PlantedFaceCall} opens. Never part of the real scan. */
public final class PlantedFaceCallBack {
    public static String name() {
        return "web";
    }

    public static String back() {
        return dev.idiom.services.rest.PlantedFaceCall.callsWeb();
    }
}
