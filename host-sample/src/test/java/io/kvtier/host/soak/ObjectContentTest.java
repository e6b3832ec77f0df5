package io.kvtier.host.soak;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvtier.host.soak.ObjectContent.Verdict;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

class ObjectContentTest {
    private final ObjectContent content = new ObjectContent(42);

    private ByteBuffer object(int instance, int key, long version, int size) {
        ByteBuffer buffer = ByteBuffer.allocateDirect(size);
        content.fill(buffer, instance, key, version);
        return buffer;
    }

    @Test
    void anObjectVerifiesAgainstItsOwnKeyAndVersionOnly() {
        for (int size : new int[] {24, 25, 31, 4096, 4099}) {
            ByteBuffer buffer = object(1, 7, 3, size);
            assertThat(content.check(buffer, 1, 7, 3)).as("size %d", size).isEqualTo(Verdict.VERIFIED);
            assertThat(content.check(buffer, 1, 8, 3)).isEqualTo(Verdict.FOREIGN);
            assertThat(content.check(buffer, 0, 7, 3)).isEqualTo(Verdict.FOREIGN);
            assertThat(new ObjectContent(43).check(buffer, 1, 7, 3)).isEqualTo(Verdict.FOREIGN);
        }
    }

    @Test
    void anOlderVersionOfTheSameKeyIsStaleAndANewerOneForeign() {
        assertThat(content.check(object(1, 7, 2, 1000), 1, 7, 5)).isEqualTo(Verdict.STALE);
        assertThat(content.check(object(1, 7, 6, 1000), 1, 7, 5)).isEqualTo(Verdict.FOREIGN);
    }

    @Test
    void anyFlippedByteIsCaughtEvenInAnOlderVersion() {
        for (int at : new int[] {0, 12, 23, 24, 500, 999}) {
            ByteBuffer current = object(1, 7, 5, 1000);
            current.put(at, (byte) (current.get(at) ^ 1));
            assertThat(content.check(current, 1, 7, 5)).as("flip at %d", at).isEqualTo(Verdict.FOREIGN);
            ByteBuffer older = object(1, 7, 2, 1000);
            older.put(at, (byte) (older.get(at) ^ 0x80));
            assertThat(content.check(older, 1, 7, 5)).as("flip at %d", at).isEqualTo(Verdict.FOREIGN);
        }
    }

    @Test
    void zeroedMemoryIsNeverAnObject() {
        assertThat(content.check(ByteBuffer.allocateDirect(4096), 0, 0, 1)).isEqualTo(Verdict.FOREIGN);
    }

    @Test
    void aCorruptedLoadNamesWhoseObjectItHeld() {
        assertThat(content.whose(object(2, 9, 4, 1000))).isEqualTo("the whole object of instance 2 key 9 version 4");
        ByteBuffer torn = object(2, 9, 4, 1000);
        torn.put(500, (byte) (torn.get(500) ^ 1));
        assertThat(content.whose(torn)).isEqualTo("the header of instance 2 key 9 version 4, other bytes after it");
        assertThat(content.whose(ByteBuffer.allocateDirect(1000))).isEqualTo("no object of this run");
    }
}
