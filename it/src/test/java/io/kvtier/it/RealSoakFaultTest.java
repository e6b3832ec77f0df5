package io.kvtier.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 7's fault a: {@code kvtier soak} in a host process, with one instance that contributes a
 * segment and one that does not, while the master is SIGKILLed and restarted on the same port.
 * The host keeps running, nothing is corrupted or lost, and each instance's throughput returns to
 * 80% of what it was before the fault within 30 s of the master's return, without a host restart.
 */
@ExtendWith(RealMooncakeAvailable.class)
class RealSoakFaultTest {
    /** "[soak 12s] name  store 10 ops/s 1.2 MB/s  lookup ...  load 20 ops/s 2.5 MB/s  delete ..." */
    private static final Pattern PROGRESS = Pattern.compile(
            "^\\[soak (\\d+)s\\] (\\S+) .*store [\\d.]+ ops/s ([\\d.]+) MB/s .*load [\\d.]+ ops/s ([\\d.]+) MB/s");
    private static final List<String> INSTANCES = List.of("segment", "segment-less");

    /** One progress line: OK bytes stored and loaded per second by one instance. */
    record Progress(int second, String instance, double mbPerSecond) {}

    private final BlockingQueue<Progress> progress = new LinkedBlockingQueue<>();
    /** Appended by the reader thread while the test thread reads it for its messages. */
    private final List<String> stderr = new CopyOnWriteArrayList<>();

    @Test
    void theSoakLosesNothingAndRecoversWhenTheMasterIsKilledAndRestarted(@TempDir Path dir) throws Exception {
        try (MooncakeMaster master = MooncakeMaster.startOwn(dir)) {
            HostProcess host = HostProcess.installWithMooncakePlugin(dir.resolve("host"));
            Process soak = host.start("soak", "--duration", "80s", "--progress-interval", "1s", "--json",
                    "--marks-from-stdin", "--threads", "4", "--chunk-size", "64KiB", "--keys", "256", "--batch", "4",
                    "--seed", "7", "--fault-settle", "5s",
                    "--l2-adapter", RealInstances.declaration(master.address(), "segment", 256 << 20, "{}"),
                    "--l2-adapter", RealInstances.declaration(master.address(), "segment-less", 0, "{}"));
            Thread reader = new Thread(() -> readProgress(soak), "soak-stderr");
            reader.setDaemon(true);
            reader.start();
            try (Writer marks = new OutputStreamWriter(soak.getOutputStream(), StandardCharsets.UTF_8)) {
                Map<String, List<Double>> steady = new HashMap<>();
                for (Progress p = awaitLine(any -> true); p.second() <= 20; p = awaitLine(any -> true)) {
                    if (p.second() > 8) {
                        steady.computeIfAbsent(p.instance(), i -> new ArrayList<>()).add(p.mbPerSecond());
                    }
                }
                Map<String, Double> before = new HashMap<>();
                steady.forEach((instance, values) -> before.put(instance, median(values)));
                assertThat(before).as("throughput before the fault, MB/s").containsOnlyKeys(INSTANCES);
                assertThat(before.values()).as("throughput before the fault, MB/s").allMatch(v -> v > 0);

                marks.write("fault\n");
                marks.flush();
                master.kill();
                int killedAt = awaitLine(p -> true).second();
                awaitLine(p -> p.second() > killedAt && p.mbPerSecond() == 0);
                master.restart();
                int returnedAt = awaitLine(p -> true).second();
                marks.write("recovered\n");
                marks.flush();

                Map<String, Progress> recovered = new HashMap<>();
                while (recovered.size() < INSTANCES.size()) {
                    Progress p = awaitLine(any -> true);
                    assertThat(p.second() - returnedAt).as("seconds after the master's return; recovered so far: "
                            + recovered + ", before: " + before).isLessThanOrEqualTo(30);
                    if (p.second() > returnedAt && p.mbPerSecond() >= 0.8 * before.get(p.instance())) {
                        recovered.putIfAbsent(p.instance(), p);
                    }
                }
                recovered.forEach((instance, p) -> System.out.printf("[faults] soak, master killed at %ds and back "
                        + "at %ds: %s back to %.1f MB/s (>= 80%% of %.1f) at %ds, %d s after the master's return%n",
                        killedAt, returnedAt, instance, p.mbPerSecond(), before.get(instance), p.second(),
                        p.second() - returnedAt));
            }
            assertThat(soak.waitFor(120, TimeUnit.SECONDS)).as("the soak ends on its own").isTrue();
            String report = new String(soak.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            assertThat(soak.exitValue()).as(String.join("\n", stderr)).isZero();
            Config parsed = ConfigFactory.parseString(report);
            assertThat(parsed.getBoolean("passed")).isTrue();
            for (Config instance : parsed.getConfigList("instances")) {
                assertThat(instance.getLong("corrupted")).isZero();
                assertThat(instance.getLong("lost")).isZero();
                System.out.printf("[faults] soak %s: errors by kind %s, fault windows %s, objects the fault may have hit %s%n",
                        instance.getString("name"), instance.getObject("errors_by_kind").unwrapped(),
                        instance.getList("fault_windows").unwrapped(), instance.getObject("after_fault").unwrapped());
            }
        }
    }

    private void readProgress(Process soak) {
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(soak.getErrorStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = lines.readLine()) != null; ) {
                stderr.add(line);
                Matcher m = PROGRESS.matcher(line);
                if (m.find()) {
                    progress.add(new Progress(Integer.parseInt(m.group(1)), m.group(2),
                            Double.parseDouble(m.group(3)) + Double.parseDouble(m.group(4))));
                }
            }
        } catch (IOException e) {
            // the process ended
        }
    }

    /** The next progress line that matches, within 60 s. */
    private Progress awaitLine(Predicate<Progress> wanted) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (true) {
            Progress next = progress.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            assertThat(next).as("a progress line as expected within 60 s; stderr so far:\n" + String.join("\n", stderr)).isNotNull();
            if (wanted.test(next)) {
                return next;
            }
        }
    }

    private static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        return sorted.get(sorted.size() / 2);
    }
}
