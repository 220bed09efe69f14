package dev.idiom.events;

/** A text value holding a character XML 1.0 cannot carry (a C0 control, U+FFFE, an unpaired surrogate): which value, and where. */
public final class UncarriableCharacterException extends InvalidValueException {
    public UncarriableCharacterException(String what, char c, int at) {
        super(what + " holds the character U+" + String.format("%04X", (int) c) + " at " + at + ", which XML cannot carry; remove it");
    }
}
