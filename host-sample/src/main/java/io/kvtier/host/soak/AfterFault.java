package io.kvtier.host.soak;

/**
 * Whether the soak could judge what the faults of one instance did to the objects they may have
 * hit: those stored before a fault began ({@link FaultWindows#hitBy}). Such an object is judged when
 * a lookup, load or delete asked after the fault began answers OK or MISSING for its key; it is not
 * judged when a failed store or delete left the key's state unknown first, or when nothing asked for
 * it before the end. With none judged, "0 lost" says nothing.
 */
final class AfterFault {
    record Snapshot(long judged, long notJudged) {
        /** Keys were at risk and none could be judged. */
        boolean inconclusive() {
            return judged == 0 && notJudged > 0;
        }
    }

    private long judged;
    private long notJudged;

    synchronized void judged() {
        judged++;
    }

    synchronized void notJudged(long keys) {
        notJudged += keys;
    }

    synchronized Snapshot snapshot() {
        return new Snapshot(judged, notJudged);
    }
}
