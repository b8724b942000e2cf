package org.irmi.orb.rmi;

import java.io.Serializable;
import java.util.Arrays;
import java.util.Objects;

/** A Serializable value type passed both ways through RMI-IIOP. */
public final class Greeting implements Serializable {
    private static final long serialVersionUID = 1L;
    public final String text;
    public final int count;
    public final byte[] payload;

    public Greeting(String text, int count, byte[] payload) {
        this.text = text;
        this.count = count;
        this.payload = payload;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Greeting g && g.count == count && Objects.equals(g.text, text)
                && Arrays.equals(g.payload, payload);
    }

    @Override
    public int hashCode() {
        return Objects.hash(text, count) * 31 + Arrays.hashCode(payload);
    }
}
