package io.kvtier.host.soak;

/**
 * What became of the keys a harness sealed before a fault that must lose nothing ({@code seal} on
 * stdin): no operation touched them after the seal, and the end of the soak loaded each once.
 *
 * @param evicted keys missing at the end from an instance that evicts ({@code --evicting}), which does not fail the soak
 * @param unread  keys whose load at the end failed, so their fate is not known
 */
record Sealed(int keys, long verified, long missing, long evicted, long corrupted, long unread) {
    static final Sealed NONE = new Sealed(0, 0, 0, 0, 0, 0);

    boolean passed() {
        return missing == 0 && corrupted == 0;
    }
}
