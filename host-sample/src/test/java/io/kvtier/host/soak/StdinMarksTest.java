package io.kvtier.host.soak;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringReader;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class StdinMarksTest {
    @Test
    void faultRecoveredSealAndStopLinesAreActedOnAndOtherLinesAreReported() {
        List<Boolean> marks = new ArrayList<>();
        int[] seals = new int[1];
        int[] stops = new int[1];
        StringWriter err = new StringWriter();
        StdinMarks.read(new StringReader("seal\nfault\n\n  recovered \nkill master\nfault\nstop\n"), marks::add,
                () -> seals[0]++, () -> stops[0]++, new PrintWriter(err, true));
        assertThat(marks).containsExactly(true, false, true);
        assertThat(seals[0]).isEqualTo(1);
        assertThat(stops[0]).isEqualTo(1);
        assertThat(err.toString()).isEqualTo(
                "kvtier: warning: ignored stdin line 'kill master' (expected 'fault', 'recovered', 'seal' or 'stop')\n");
    }
}
