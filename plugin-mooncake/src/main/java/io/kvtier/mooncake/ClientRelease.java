package io.kvtier.mooncake;

import jakarta.inject.Inject;
import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;

/**
 * The end of close(): waits, bounded, for every native call and the health probe to return, then
 * unregisters L1 and destroys the client. When one of them has not returned, both stay in place:
 * freeing the client under a running call could crash the JVM.
 */
final class ClientRelease {
    private final WorkerLanes lanes;
    private final MasterHealth health;
    private final NodeWatch nodeWatch;
    private final ScheduledExecutorService healthScheduler;
    private final L1Registration registration;
    private final MooncakeClient client;
    private final Duration drain;
    private final Duration probeStop;
    private final Duration nodeProbeStop;

    @Inject
    ClientRelease(WorkerLanes lanes, MasterHealth health,
                  NodeWatch nodeWatch, ScheduledExecutorService healthScheduler, L1Registration registration,
                  MooncakeClient client, Timings timings, MooncakeStoreConfig config) {
        this.lanes = lanes;
        this.health = health;
        this.nodeWatch = nodeWatch;
        this.healthScheduler = healthScheduler;
        this.nodeProbeStop = timings.nodeProbeStop(config.bounds().batchTimeout());
        this.registration = registration;
        this.client = client;
        this.drain = timings.drain();
        this.probeStop = timings.probeStop(config.rpcTimeout());
    }

    Duration drain() {
        return drain;
    }

    /** @return whether the client was freed; false when a native call or the probe is still running */
    boolean run() {
        // All three always run: a probe that kept going after close() would call listeners on a leaked client.
        boolean callsReturned = awaitNativeCalls();
        boolean probeReturned = stopHealth();
        boolean nodeProbeReturned = stopNodeWatch();
        // A tick still running finds the client destroyed (MooncakeClient's node calls wait for close).
        healthScheduler.shutdownNow();
        if (!callsReturned || !probeReturned || !nodeProbeReturned) {
            return false;
        }
        registration.close();
        client.close();
        return true;
    }

    /** Whether the node probe has returned from the native client, so that it may be freed. */
    private boolean stopNodeWatch() {
        try {
            return nodeWatch.stop(nodeProbeStop);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Whether the health probe has returned from the native client, so that it may be freed. */
    private boolean stopHealth() {
        try {
            return health.stop(probeStop);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * Waits for the lanes' native calls, through interrupts: giving up early
     * would leak the native client for nothing.
     */
    private boolean awaitNativeCalls() {
        long deadline = System.nanoTime() + drain.toNanos();
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return lanes.awaitTermination(deadline);
                } catch (InterruptedException e) {
                    interrupted = true;
                    if (System.nanoTime() - deadline >= 0) {
                        return false;
                    }
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
