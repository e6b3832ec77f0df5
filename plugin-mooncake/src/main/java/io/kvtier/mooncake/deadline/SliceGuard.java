package io.kvtier.mooncake.deadline;

import jnr.ffi.Pointer;

/**
 * The handshake between a batch's work and whoever completes its future first (its deadline,
 * close()): the work touches the caller's L1 slices only between a successful {@link #enter()}
 * and {@link #exit()}, and a batch is never completed in between. The connector takes the same
 * handshake through the guard's word in native memory (kvt_load's guard).
 */
public interface SliceGuard {
    /** For work that never touches slices after its future could complete (no deadline). */
    SliceGuard ALWAYS = new SliceGuard() {
        @Override
        public boolean enter() {
            return true;
        }

        @Override
        public void exit() {}

        @Override
        public boolean completed() {
            return false;
        }

        @Override
        public Pointer word() {
            return null;
        }
    };

    /** @return false once the batch completed: its slices are no longer the work's to touch */
    boolean enter();

    void exit();

    /** Whether the batch completed before its work returned. */
    boolean completed();

    /** The guard's state as kvt_load takes it: an {@code int32_t} holding a KVT_GUARD_* value. */
    Pointer word();
}
