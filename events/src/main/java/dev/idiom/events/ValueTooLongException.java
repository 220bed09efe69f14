package dev.idiom.events;

/** A text value longer than the record holds: which value, and the bound it passed. */
public final class ValueTooLongException extends InvalidValueException {
    private final String what;
    private final int max;

    public ValueTooLongException(String what, int max) {
        super(what + " is longer than " + max + " characters");
        this.what = what;
        this.max = max;
    }

    /** The value, as the message names it ("rights", "extras value 'comment'"). */
    public String what() {
        return what;
    }

    public int max() {
        return max;
    }
}
