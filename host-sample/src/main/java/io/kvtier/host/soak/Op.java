package io.kvtier.host.soak;

import java.util.Locale;

/** The operations of the soak's mix. */
enum Op {
    STORE, LOOKUP, LOAD, DELETE;

    String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
