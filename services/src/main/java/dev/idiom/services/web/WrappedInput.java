package dev.idiom.services.web;

import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import java.io.IOException;

/** A request body stream that checks what it passes on (a size limit, a minimum rate); the container's stream does the rest. */
abstract class WrappedInput extends ServletInputStream {
    private final ServletInputStream raw;

    WrappedInput(ServletInputStream raw) {
        this.raw = raw;
    }

    /** Called after every read with the bytes it gave (-1 at the end). */
    abstract void check(int read) throws IOException;

    @Override
    public int read() throws IOException {
        int b = raw.read();
        check(b < 0 ? -1 : 1);
        return b;
    }

    @Override
    public int read(byte[] buf, int off, int len) throws IOException {
        int n = raw.read(buf, off, len);
        check(n);
        return n;
    }

    @Override
    public boolean isFinished() {
        return raw.isFinished();
    }

    @Override
    public boolean isReady() {
        return raw.isReady();
    }

    @Override
    public void setReadListener(ReadListener listener) {
        raw.setReadListener(listener);
    }
}
