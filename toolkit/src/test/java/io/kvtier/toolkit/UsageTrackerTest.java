package io.kvtier.toolkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvtier.spi.L2AdapterListener;
import io.kvtier.spi.ObjectKey;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class UsageTrackerTest {
    private static ObjectKey key(int i, String salt) {
        return new ObjectKey(new byte[] {(byte) i}, "m", 0, 0, salt);
    }

    @Test
    void countsNewBytesOnceAndReturnsToZeroAfterDelete() {
        UsageTracker tracker = new UsageTracker(2000);
        assertThat(tracker.usage().usageFraction()).isEqualTo(0.0);
        assertThat(tracker.recordStored(List.of(key(1, ""), key(2, "")), List.of(200L, 200L))).isEqualTo(400);
        assertThat(tracker.usage().usageFraction()).isEqualTo(0.2);
        assertThat(tracker.recordStored(List.of(key(1, "")), List.of(200L))).isZero();
        assertThat(tracker.usage().totalBytesUsed()).isEqualTo(400);
        tracker.recordDeleted(List.of(key(1, ""), key(2, ""), key(3, "")));
        assertThat(tracker.usage().totalBytesUsed()).isZero();
    }

    @Test
    void aBoundedTrackerForgetsTheKeyLeastRecentlyStoredOrLoaded() {
        UsageTracker tracker = new UsageTracker(0, 2);
        tracker.recordStored(List.of(key(1, "a"), key(2, "b")), List.of(10L, 20L));
        tracker.recordAccessed(List.of(key(1, "a")));
        tracker.recordStored(List.of(key(3, "b")), List.of(30L));
        assertThat(tracker.trackedKeys()).isEqualTo(2);
        assertThat(tracker.usage().totalBytesUsed()).as("key 2, the least recent, forgotten").isEqualTo(40);
        assertThat(tracker.usage().bytesByCacheSalt()).containsEntry("a", 10L).containsEntry("b", 30L);
        assertThat(tracker.recordStored(List.of(key(2, "b")), List.of(20L))).as("key 2 counts as new again").isEqualTo(20);
        assertThat(tracker.usage().bytesByCacheSalt()).containsOnlyKeys("b").containsEntry("b", 50L);
    }

    @Test
    void aKeyFoundMissingIsForgottenWithoutTellingListeners() {
        UsageTracker tracker = new UsageTracker(0, 10);
        List<String> deleted = new ArrayList<>();
        tracker.addListener(new L2AdapterListener() {
            @Override
            public void onKeysDeleted(List<ObjectKey> keys) {
                deleted.add(keys.toString());
            }
        });
        tracker.recordStored(List.of(key(1, "a"), key(2, "a")), List.of(10L, 20L));
        tracker.recordMissing(List.of(key(1, "a"), key(9, "a")));
        assertThat(tracker.usage().totalBytesUsed()).isEqualTo(20);
        assertThat(tracker.trackedKeys()).isEqualTo(1);
        assertThat(deleted).isEmpty();
    }

    @Test
    void aTrackerThatSeesAMillionStoresHoldsNoMoreThanItsBound() {
        UsageTracker tracker = new UsageTracker(0, 1000);
        for (int i = 0; i < 1_000_000; i++) {
            tracker.recordStored(List.of(new ObjectKey(java.nio.ByteBuffer.allocate(4).putInt(i).array(), "m", 0, 0, "")),
                    List.of(100L));
        }
        assertThat(tracker.trackedKeys()).isEqualTo(1000);
        assertThat(tracker.usage().totalBytesUsed()).isEqualTo(1000 * 100L);
    }

    @Test
    void withoutCapacityTheFractionIsTheNoSignalSentinel() {
        assertThat(new UsageTracker(0).usage().usageFraction()).isEqualTo(-1.0);
    }

    @Test
    void tracksBytesPerCacheSaltAndDropsEmptyBuckets() {
        UsageTracker tracker = new UsageTracker(0);
        tracker.recordStored(List.of(key(1, "alice"), key(2, "bob"), key(3, "alice")), List.of(10L, 20L, 30L));
        assertThat(tracker.usage().bytesByCacheSalt()).containsOnlyKeys("alice", "bob").containsEntry("alice", 40L);
        tracker.recordDeleted(List.of(key(2, "bob")));
        assertThat(tracker.usage().bytesByCacheSalt()).containsOnlyKeys("alice");
    }

    @Test
    void tellsListenersWhatHappened() {
        UsageTracker tracker = new UsageTracker(0);
        List<String> events = new ArrayList<>();
        tracker.addListener(new L2AdapterListener() {
            @Override
            public void onKeysStored(List<ObjectKey> keys, List<Long> sizes) {
                events.add("stored " + keys.size() + " " + sizes);
            }

            @Override
            public void onKeysAccessed(List<ObjectKey> keys) {
                events.add("accessed " + keys.size());
            }

            @Override
            public void onKeysDeleted(List<ObjectKey> keys) {
                events.add("deleted " + keys);
            }
        });
        tracker.recordStored(List.of(key(1, "")), List.of(5L));
        tracker.recordStored(List.of(key(1, "")), List.of(5L));
        tracker.recordAccessed(List.of(key(1, "")));
        tracker.recordDeleted(List.of(key(1, ""), key(9, "")));
        assertThat(events).containsExactly("stored 1 [5]", "stored 1 [0]", "accessed 1", "deleted [" + key(1, "") + "]");
    }

    @Test
    void locksAreRefCountedAndUnlockNeverFails() {
        KeyLocks locks = new KeyLocks();
        locks.lock(key(1, ""));
        locks.lock(key(1, ""));
        locks.unlock(List.of(key(1, ""), key(2, "")));
        assertThat(locks.isLocked(key(1, ""))).isTrue();
        locks.unlock(List.of(key(1, "")));
        assertThat(locks.isLocked(key(1, ""))).isFalse();
    }
}
