package io.kvtier.mooncake;

/**
 * The handshake between a batch's work and whoever completes its future first (its deadline,
 * close()): the work touches the caller's L1 slices only between a successful {@link #enter()}
 * and {@link #exit()}, and a batch is never completed in between.
 */
interface SliceGuard {
    /** For work that never touches slices after its future could complete (no deadline). */
    SliceGuard ALWAYS = new SliceGuard() {
        @Override
        public boolean enter() {
            return true;
        }

        @Override
        public void exit() {}
    };

    /** @return false once the batch completed: its slices are no longer the work's to touch */
    boolean enter();

    void exit();
}
