package io.kvtier.it;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A client workload on a cluster under one fault, and what it did: the longest time any batch
 * waited, the throughput (MB/s stored and loaded OK) before, during and after the fault, errors
 * by kind, corrupted and lost. The cluster: host 0 runs the master, hosts 1 to 3 storage nodes (kvtier_raw_bench node,
 * 512 MiB each), host 4 {@code kvtier soak} on a mooncake_store instance without a segment, host 5
 * Mooncake's own C client ({@code kvtier_raw_bench soak}) with the same workload. The fault hits
 * host 1 (host 0 for the master). For {@link Fault#ha} faults the masters are two, on hosts 0 and
 * 6, elected through a Redis server on host 7; every client names the Redis server as its master.
 * Tests use {@link #run}; {@link #main} runs one from the shell (tools/cluster/scenario).
 */
final class ClusterScenario {
    static final int MASTER = 0;
    static final int FAULTED_NODE = 1;
    static final int NODES = 3;
    private static final int KVTIER_HOST = 4;
    private static final int RAW_HOST = 5;
    static final int STANDBY_MASTER = 6;
    private static final int REDIS = 7;
    /**
     * An HA master with the Redis backend: at the pinned commit one without snapshot restore gets
     * a standby controller that refuses promotion, so no master ever leads (docs/ha-masters.md).
     * A standby loads the latest snapshot when it starts, and only then: a snapshot every 5 s
     * (Mooncake's default is 600 s) gives a restarted standby metadata that the next kill makes
     * stale, the worst case for what a load may find.
     */
    private static final List<String> HA_FLAGS = List.of("--enable_ha=true", "--ha_backend_type=redis",
            "--enable_snapshot=true", "--enable_snapshot_restore=true", "--snapshot_object_store_type=local", "--snapshot_interval_seconds=5");
    /** How long a master may take to reach a state the scenario waits for. */
    private static final Duration ROLE_TIMEOUT = Duration.ofSeconds(60);
    static final Path RAW_BENCH = Artifacts.RAW_BENCH;
    private static final Path KVTIER = HostProcess.ROOT.resolve("host-sample/bin/kvtier");
    private static final long NODE_SEGMENT = 512L << 20;
    /** Seconds of the start that warm up (JIT, connections) and are not part of "before". */
    private static final double WARM_UP = 5;
    /** The end waits this long for batches in flight (kvtier soak waits up to 60 s for them). */
    private static final Duration END_TIMEOUT = Duration.ofSeconds(75);
    /** A fault whose outage has not begun this many seconds after it made none. */
    private static final double OUTAGE_STARTS_WITHIN = 5;

    /** The same line from {@code kvtier soak --progress-interval 1s} and {@code kvtier_raw_bench soak}. */
    private static final Pattern PROGRESS = Pattern.compile("^\\[(?:soak|raw) (\\d+)s\\] \\S+  store ([\\d.]+) ops/s "
            + "([\\d.]+) MB/s  lookup ([\\d.]+) ops/s  load ([\\d.]+) ops/s ([\\d.]+) MB/s  delete ([\\d.]+) ops/s  errors (.*?)"
            + "  wait max (\\d+) ms  waiting (\\d+) ms(.*)$");
    private static final Pattern ERROR_COUNT = Pattern.compile("=(\\d+)");

    enum Fault {
        NONE, PARTITION_NODE, ONEWAY_NODE_IN, ONEWAY_NODE_OUT, FLAP_NODE, PAUSE_NODE, KILL_NODE, PARTITION_MASTER,
        /** SIGKILL of the leading master; at the heal it starts again, as a standby. Every round kills the leader of the time. */
        KILL_LEADER,
        /** The leading master's host cut off; at the heal it comes back and finds another master leading. */
        PARTITION_LEADER,
        /**
         * Rounds of before + during + after, each with one fault of {@link #DRAWN} (each as often,
         * in a random order), on a random node.
         */
        RANDOM;

        static final List<Fault> DRAWN = List.of(PARTITION_NODE, FLAP_NODE, KILL_NODE, PAUSE_NODE, PARTITION_MASTER);

        int host() {
            return this == PARTITION_MASTER || ha() ? MASTER : FAULTED_NODE;
        }

        /** A fault of the leader of two HA masters, which run only for these. */
        boolean ha() {
            return this == KILL_LEADER || this == PARTITION_LEADER;
        }
    }

    enum Client { KVTIER, RAW }

    /**
     * @param batchTimeoutMs the mooncake_store option {@code batch_timeout_ms} given to kvtier
     *                       (a warning where the option does not exist yet)
     * @param flapPeriod     for FLAP_NODE: cut this long, heal this long, and so on
     * @param rounds         for RANDOM: how many rounds (one fault each); 1 otherwise
     * @param clientTtlSeconds the master's {@code --client_ttl}, or 0 for Mooncake's default (10 s)
     */
    record Plan(String name, Fault fault, int replicas, Duration before, Duration during, Duration after,
                Duration flapPeriod, long batchTimeoutMs, List<Client> clients, int threads, int batch, int chunkSize,
                int keys, int rounds, int clientTtlSeconds) {
        static Plan of(String name, Fault fault, int replicas, long batchTimeoutMs, Client... clients) {
            return new Plan(name, fault, replicas, Duration.ofSeconds(15), Duration.ofSeconds(20), Duration.ofSeconds(15),
                    Duration.ofSeconds(5), batchTimeoutMs, List.of(clients), 4, 8, 256 << 10, 1024, 1, 0);
        }

        Plan withPhases(Duration before, Duration during, Duration after) {
            return new Plan(name, fault, replicas, before, during, after, flapPeriod, batchTimeoutMs, clients, threads,
                    batch, chunkSize, keys, rounds, clientTtlSeconds);
        }

        Plan withClientTtl(int seconds) {
            return new Plan(name, fault, replicas, before, during, after, flapPeriod, batchTimeoutMs, clients, threads,
                    batch, chunkSize, keys, rounds, seconds);
        }

        Duration round() {
            return before.plus(during).plus(after);
        }
    }

    /**
     * One fault as it was made: from {@code at} to {@code healAt}, seconds of the runner's clock;
     * for a fault of the leader, {@code servingAt} is when another master served (null if none did by the heal).
     */
    record Episode(Fault fault, int host, double at, double healAt, Double servingAt) {}

    /**
     * One progress line; {@code at} is seconds since the runner started the clients. Batches per
     * second count failed batches too (a batch that fails fast is quick); the MB/s of objects
     * stored and loaded OK is the work done, and what the throughput figures are made of.
     */
    record Second(double at, double opsPerSecond, double storeMbPerSecond, double loadMbPerSecond, long waitMaxMs,
                  long waitingMs, long errorsSoFar, boolean unhealthy) {
        double okMbPerSecond() {
            return storeMbPerSecond + loadMbPerSecond;
        }
    }

    /**
     * The keys kvtier's soak sealed just before a single fault (stored then, untouched since) and
     * what a load of each found at the end; all zero for the raw client and for rounds.
     */
    record SealedKeys(long keys, long verified, long missing, long corrupted) {
        static final SealedKeys NONE = new SealedKeys(0, 0, 0, 0);
    }

    /** What one client did. Windows are mean OK MB/s; recovery is seconds after the heal. */
    record ClientResult(Client client, List<Second> seconds, long longestWaitMs, Map<String, Long> errorsByKind,
                        Map<String, Long> errorsByOperation, long corrupted, long lost, long missingAfterFault,
                        SealedKeys sealed, double before, double during, double after, Double recoverySeconds,
                        String endedHow) {
        /** Mean OK MB/s over [from, to) seconds of the runner's clock. */
        double mean(double from, double to) {
            return seconds.stream().filter(s -> s.at() >= from && s.at() < to).mapToDouble(Second::okMbPerSecond)
                    .average().orElse(0);
        }

        /** Mean batches per second, failed ones included, over [from, to). */
        double batches(double from, double to) {
            return seconds.stream().filter(s -> s.at() >= from && s.at() < to).mapToDouble(Second::opsPerSecond)
                    .average().orElse(0);
        }

        /** The longest wait in [from, to): of a batch that completed, or of the oldest still in flight. */
        long longestWaitMs(double from, double to) {
            return seconds.stream().filter(s -> s.at() >= from && s.at() < to)
                    .mapToLong(s -> Math.max(s.waitMaxMs(), s.waitingMs())).max().orElse(0);
        }

        /**
         * Seconds from {@code from} (a fault) until {@code work} is done OK again: to the end of the
         * first progress second with some, after the first second without any that starts within
         * {@link #OUTAGE_STARTS_WITHIN} of the fault (a second that ends just after the fault still
         * counts what was done before it). 0 if no such second lacked it; null if it never came back.
         * To within the progress interval (1 s).
         */
        Double secondsToResume(double from, ToDoubleFunction<Second> work) {
            Second outage = seconds.stream().filter(s -> s.at() > from && s.at() <= from + OUTAGE_STARTS_WITHIN
                    && work.applyAsDouble(s) == 0).findFirst().orElse(null);
            if (outage == null) {
                return 0.0;
            }
            return seconds.stream().filter(s -> s.at() > outage.at() && work.applyAsDouble(s) > 0).findFirst()
                    .map(s -> s.at() - from).orElse(null);
        }

        /** Seconds from {@code healAt} until a 3 s mean is again 80% of {@code before}; null if never. */
        Double secondsToRecover(double healAt, double before) {
            for (Second s : seconds) {
                if (s.at() >= healAt && mean(s.at(), s.at() + 3) >= 0.8 * before) {
                    return s.at() - healAt;
                }
            }
            return null;
        }
    }

    /** @param loadAverage the machine's 1-minute load average at the start and the end (other work skews the figures) */
    record Result(Plan plan, double faultAt, double healAt, double endAt, Map<Client, ClientResult> clients,
                  String loadAverage, List<Episode> episodes) {
        ClientResult client(Client client) {
            return clients.get(client);
        }

        /** The [cluster] lines: the figures of each client, and its batches per second every 5 s. */
        List<String> lines() {
            List<String> lines = new ArrayList<>();
            clients.forEach((client, r) -> {
                lines.add(String.format("[cluster] %s, %s: longest wait %d ms; OK MB/s before %.0f, during %.0f (from 5 s "
                                + "after the fault), after %.0f (from 10 s after the heal); back to 80%% %s after the heal; "
                                + "errors %s (by operation %s); corrupted %d, lost %d, missing after fault %d; %s; %s",
                        plan.name(), client.name().toLowerCase(), r.longestWaitMs(), r.before(), r.during(), r.after(),
                        r.recoverySeconds() == null ? "never" : String.format("%.0f s", r.recoverySeconds()),
                        r.errorsByKind(), r.errorsByOperation(), r.corrupted(), r.lost(), r.missingAfterFault(),
                        r.sealed().keys() == 0 ? "no keys sealed" : String.format("of %d keys sealed before the fault, "
                                + "%d verified at the end, %d missing, %d corrupted", r.sealed().keys(), r.sealed().verified(),
                                r.sealed().missing(), r.sealed().corrupted()), r.endedHow()));
                StringBuilder windows = new StringBuilder(String.format("[cluster] %s, %s: every 5 s, OK MB/s / batches/s "
                                + "(fault %.0f-%.0f s, load average %s):", plan.name(), client.name().toLowerCase(), faultAt, healAt,
                        loadAverage));
                for (double from = 0; from < endAt; from += 5) {
                    windows.append(String.format(" %.0f/%.0f", r.mean(from, from + 5), r.batches(from, from + 5)));
                }
                lines.add(windows.toString());
                if (plan.fault() == Fault.RANDOM) {
                    episodes.forEach(e -> lines.add(episodeLine(client, r, e)));
                } else if (plan.fault().ha()) {
                    episodes.forEach(e -> lines.add(leaderFaultLine(client, r, e)));
                }
            });
            return lines;
        }

        /** A RANDOM round's figures: before is the 15 s before the fault, recovery as for one fault. */
        private String episodeLine(Client client, ClientResult r, Episode e) {
            double before = r.mean(e.at() - 15, e.at());
            long longest = r.longestWaitMs(e.at(), e.healAt() + plan.after().toSeconds());
            Double recovery = r.secondsToRecover(e.healAt(), before);
            return String.format("[cluster] %s, %s: %s on host %d at %.0f-%.0f s: longest wait %d ms; OK MB/s before %.0f, "
                            + "during %.0f (from 5 s after the fault); back to 80%% %s after the heal", plan.name(),
                    client.name().toLowerCase(), e.fault().name().toLowerCase().replace('_', '-'), e.host(), e.at(), e.healAt(),
                    longest, before, r.mean(e.at() + 5, e.healAt()),
                    recovery == null ? "never" : String.format("%.0f s", recovery));
        }

        /** A fault of the leader: when another master served, and when this client stored and loaded again. */
        private String leaderFaultLine(Client client, ClientResult r, Episode e) {
            return String.format("[cluster] %s, %s: leader on host %d %s at %.0f s: another master serving %s after; "
                            + "stores OK again %s after, loads OK again %s after; longest wait %d ms; OK MB/s 15 s before %.0f, "
                            + "from 10 s after the fault to its heal %.0f", plan.name(), client.name().toLowerCase(), e.host(),
                    e.fault() == Fault.KILL_LEADER ? "killed" : "cut off", e.at(), seconds(e.servingAt() == null ? null : e.servingAt() - e.at()),
                    seconds(r.secondsToResume(e.at(), Second::storeMbPerSecond)),
                    seconds(r.secondsToResume(e.at(), Second::loadMbPerSecond)),
                    r.longestWaitMs(e.at(), e.healAt() + plan.after().toSeconds()), r.mean(e.at() - 15, e.at()),
                    r.mean(e.at() + 10, e.healAt()));
        }

        private static String seconds(Double value) {
            return value == null ? "never" : String.format("%.1f s", value);
        }
    }

    private record Running(Client client, Process process, List<Second> seconds, List<String> stderr,
                           CompletableFuture<String> stdout) {}

    private final Cluster cluster;
    private final Plan plan;
    private final Path logs;
    private long startNanos;
    private String master;
    /** For a fault of the leader: the host of the master that serves now. */
    private int leader = MASTER;
    /** The storage node on each node host; a killed one is started anew at its heal. */
    private final Map<Integer, Process> nodes = new TreeMap<>();

    private ClusterScenario(Cluster cluster, Plan plan, Path logs) {
        this.cluster = cluster;
        this.plan = plan;
        this.logs = logs;
    }

    /** Makes the cluster, runs the plan on it, removes the cluster. */
    static Result run(Plan plan, Path logs) throws Exception {
        Files.createDirectories(logs);
        System.out.printf("[cluster] %s: the master's, the nodes' and the clients' logs go to %s%n", plan.name(), logs);
        try (Cluster cluster = Cluster.up(plan.fault().ha() ? REDIS + 1 : RAW_HOST + 1, logs)) {
            return new ClusterScenario(cluster, plan, logs).run();
        }
    }

    private Result run() throws Exception {
        if (plan.fault().ha()) {
            master = cluster.startRedis(REDIS);
            startHaMaster(MASTER, "serving");
            startHaMaster(STANDBY_MASTER, "standby");
        } else {
            master = cluster.startMaster(MASTER, masterFlags().toArray(String[]::new));
        }
        for (int host = 1; host <= NODES; host++) {
            nodes.put(host, startNode(host, master));
        }
        Map<Client, Running> clients = new EnumMap<>(Client.class);
        String loadAtStart = loadAverage();
        startNanos = System.nanoTime();
        for (Client client : plan.clients()) {
            clients.put(client, start(client, master));
        }
        // The clock starts once every client is working, so the JVM's start is not "before".
        for (Running r : clients.values()) {
            awaitFirstLine(r);
        }
        double begin = now();
        List<Episode> episodes = new ArrayList<>();
        Random draw = new Random();
        List<Fault> drawn = new ArrayList<>();
        if (plan.fault() == Fault.RANDOM) {
            for (int round = 0; round < plan.rounds(); round++) {
                drawn.add(Fault.DRAWN.get(round % Fault.DRAWN.size()));
            }
            Collections.shuffle(drawn, draw);
        }
        for (int round = 0; round < plan.rounds(); round++) {
            Fault fault = plan.fault();
            int host = fault.ha() ? leader : fault.host();
            if (fault == Fault.RANDOM) {
                fault = drawn.get(round);
                host = fault == Fault.PARTITION_MASTER ? MASTER : 1 + draw.nextInt(NODES);
            }
            sleepUntil(begin + round * plan.round().toMillis() / 1000.0 + plan.before().toMillis() / 1000.0);
            if (plan.fault() != Fault.RANDOM && round == 0 && clients.containsKey(Client.KVTIER)) {
                seal(clients.get(Client.KVTIER));
            }
            double at = now();
            inflict(fault, host);
            int successor = other(host);
            CompletableFuture<Double> serving = fault.ha()
                    ? CompletableFuture.supplyAsync(() -> awaitServing(successor, at + plan.during().toMillis() / 1000.0))
                    : CompletableFuture.completedFuture(null);
            sleepUntil(at + plan.during().toMillis() / 1000.0);
            Double servingAt = serving.get();
            double healAt = now();
            heal(fault, host);
            episodes.add(new Episode(fault, host, at, healAt, servingAt));
            sleepUntil(healAt + plan.after().toMillis() / 1000.0);
        }
        double faultAt = episodes.get(0).at();
        double healAt = episodes.get(episodes.size() - 1).healAt();
        double endAt = now();
        Map<Client, ClientResult> results = new EnumMap<>(Client.class);
        for (Running r : clients.values()) {
            stop(r);
        }
        for (Running r : clients.values()) {
            results.put(r.client(), result(r, begin, faultAt, healAt, endAt));
        }
        for (Process node : nodes.values()) {
            node.getOutputStream().close();
        }
        return new Result(plan, faultAt, healAt, endAt, results, loadAtStart + " to " + loadAverage(), episodes);
    }

    private List<String> masterFlags() {
        List<String> flags = new ArrayList<>();
        if (plan.clientTtlSeconds() > 0) {
            flags.add("--client_ttl=" + plan.clientTtlSeconds());
        }
        if (plan.fault().ha()) {
            flags.addAll(HA_FLAGS);
            flags.add("--ha_backend_connstring=" + master);
        }
        return flags;
    }

    /** Starts an HA master on the host and waits until it reports {@code state}. */
    private void startHaMaster(int host, String state) throws IOException, InterruptedException {
        cluster.startMaster(host, masterFlags().toArray(String[]::new));
        long deadline = System.nanoTime() + ROLE_TIMEOUT.toNanos();
        String now;
        while (!(now = cluster.haStatus(host)).equals(state)) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the master on host " + host + " is '" + now + "', not '" + state
                        + "', " + ROLE_TIMEOUT.toSeconds() + " s after its start; see " + logs.resolve("master-h" + host + ".log"));
            }
            TimeUnit.MILLISECONDS.sleep(100);
        }
    }

    /** Waits, after the fault of the master on {@code host}, until one master serves and the other stands by; the one serving leads the next round. */
    private void awaitLeaderAndStandby(int host) throws InterruptedException {
        long deadline = System.nanoTime() + ROLE_TIMEOUT.toNanos();
        while (true) {
            String back = cluster.haStatus(host);
            String other = cluster.haStatus(other(host));
            if (back.equals("standby") && other.equals("serving")) {
                leader = other(host);
                return;
            }
            if (back.equals("serving") && other.equals("standby")) {
                leader = host;
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("after its fault the master on host " + host + " is '" + back
                        + "' and the one on host " + other(host) + " '" + other + "': no leader with a standby within "
                        + ROLE_TIMEOUT.toSeconds() + " s; see the master-h*.log files in " + logs);
            }
            TimeUnit.MILLISECONDS.sleep(100);
        }
    }

    private static int other(int masterHost) {
        return masterHost == MASTER ? STANDBY_MASTER : MASTER;
    }

    /** When the master on the host serves, polled until {@code until} (the runner's clock); null if not by then. */
    private Double awaitServing(int host, double until) {
        try {
            while (now() < until) {
                if (cluster.haStatus(host).equals("serving")) {
                    return now();
                }
                TimeUnit.MILLISECONDS.sleep(100);
            }
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    private static String loadAverage() throws IOException {
        return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
    }

    private Process startNode(int host, String master) throws IOException {
        Process node = cluster.start(host, "node-" + host + ".log", List.of(RAW_BENCH.toString(), "node", "--master", master,
                "--segment", Long.toString(NODE_SEGMENT), "--hostname", cluster.address(host)));
        BufferedReader out = new BufferedReader(new InputStreamReader(node.getInputStream(), StandardCharsets.UTF_8));
        String line = out.readLine();
        if (!"ready".equals(line)) {
            throw new IllegalStateException("storage node on host " + host + " did not start (" + line + "); see "
                    + logs.resolve("node-" + host + ".log"));
        }
        return node;
    }

    private Running start(Client client, String master) throws IOException {
        List<String> command = new ArrayList<>();
        long duration = plan.round().toSeconds() * plan.rounds() + 120; // ended by stop()
        if (client == Client.KVTIER) {
            String declaration = "{\"name\":\"kvtier\",\"type\":\"mooncake_store\",\"local_hostname\":\""
                    + cluster.address(KVTIER_HOST) + "\",\"metadata_server\":\"P2PHANDSHAKE\",\"master_server_addr\":\""
                    + master + "\",\"protocol\":\"tcp\",\"global_segment_size\":\"0\",\"local_buffer_size\":\"67108864\","
                    + "\"replica_num\":" + plan.replicas() + ",\"batch_timeout_ms\":" + plan.batchTimeoutMs()
                    // kvtier is the only writer of its keys, every store checksummed: an object of
                    // them without a checksum is one a promoted master restored, on memory maybe reused.
                    + (plan.fault().ha() ? ",\"unchecked_objects\":\"remove\"" : "") + "}";
            // Mooncake's log beside the others, rather than in the soak's temporary directory.
            command.addAll(List.of("env", "KVTIER_MOONCAKE_LOG=" + logs.resolve("kvtier-mooncake.log").toAbsolutePath(),
                    KVTIER.toString(), "soak", "--duration", duration + "s", "--progress-interval", "1s",
                    "--json", "--threads", Integer.toString(plan.threads()), "--batch", Integer.toString(plan.batch()),
                    "--chunk-size", Integer.toString(plan.chunkSize()), "--keys", Integer.toString(plan.keys()),
                    "--fault-settle", "5s", "--marks-from-stdin", "--l2-adapter", declaration));
        } else {
            command.addAll(List.of(RAW_BENCH.toString(), "soak", "--master", master, "--hostname", cluster.address(RAW_HOST),
                    "--duration", Long.toString(duration), "--threads", Integer.toString(plan.threads()),
                    "--batch", Integer.toString(plan.batch()), "--chunk-size", Integer.toString(plan.chunkSize()),
                    "--keys", Integer.toString(plan.keys()), "--replicas", Integer.toString(plan.replicas())));
        }
        int host = client == Client.KVTIER ? KVTIER_HOST : RAW_HOST;
        Process process = cluster.startPiped(host, command);
        Running running = new Running(client, process, new CopyOnWriteArrayList<>(), new CopyOnWriteArrayList<>(),
                CompletableFuture.supplyAsync(() -> readAll(process)));
        Path stderrLog = logs.resolve(client.name().toLowerCase() + ".progress");
        Thread reader = new Thread(() -> readProgress(running, stderrLog), "cluster-" + client.name().toLowerCase());
        reader.setDaemon(true);
        reader.start();
        return running;
    }

    private void readProgress(Running r, Path copy) {
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(r.process().getErrorStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = lines.readLine()) != null; ) {
                r.stderr().add(line);
                Files.writeString(copy, line + System.lineSeparator(), StandardCharsets.UTF_8,
                        StandardOpenOption.CREATE, StandardOpenOption.APPEND);
                Matcher m = PROGRESS.matcher(line);
                if (m.find()) {
                    double ops = 0;
                    for (int g : new int[] {2, 4, 5, 7}) {
                        ops += Double.parseDouble(m.group(g));
                    }
                    long errors = 0;
                    for (Matcher e = ERROR_COUNT.matcher(m.group(8)); e.find(); ) {
                        errors += Long.parseLong(e.group(1));
                    }
                    r.seconds().add(new Second(now(), ops, Double.parseDouble(m.group(3)), Double.parseDouble(m.group(6)),
                            Long.parseLong(m.group(9)), Long.parseLong(m.group(10)), errors,
                            m.group(11).contains("UNHEALTHY")));
                }
            }
        } catch (IOException e) {
            // the process ended
        }
    }

    private static String readAll(Process process) {
        try {
            return new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    private void awaitFirstLine(Running r) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (r.seconds().isEmpty()) {
            if (!r.process().isAlive() || System.nanoTime() > deadline) {
                throw new IllegalStateException(r.client() + " client did not start; its stderr:\n" + String.join("\n", r.stderr()));
            }
            TimeUnit.MILLISECONDS.sleep(50);
        }
    }

    private void inflict(Fault fault, int host) throws IOException, InterruptedException {
        switch (fault) {
            case NONE, RANDOM -> { }
            case PARTITION_NODE, PARTITION_MASTER, PARTITION_LEADER -> cluster.partition(host);
            case ONEWAY_NODE_IN -> cluster.oneway(host, Cluster.Direction.IN);
            case ONEWAY_NODE_OUT -> cluster.oneway(host, Cluster.Direction.OUT);
            case FLAP_NODE -> cluster.flap(host, plan.flapPeriod());
            case PAUSE_NODE -> cluster.signal(host, "STOP");
            case KILL_NODE, KILL_LEADER -> cluster.signal(host, "KILL");
        }
    }

    private void heal(Fault fault, int host) throws IOException, InterruptedException {
        switch (fault) {
            case NONE, RANDOM -> { }
            // The kill-node scenario measures a node that stays dead; in rounds it comes back, empty.
            case KILL_NODE -> {
                if (plan.fault() == Fault.RANDOM) {
                    nodes.put(host, startNode(host, master));
                }
            }
            case PAUSE_NODE -> cluster.signal(host, "CONT");
            // The killed master comes back as a standby; the one that took over leads on.
            case KILL_LEADER -> {
                cluster.startMaster(host, masterFlags().toArray(String[]::new));
                awaitLeaderAndStandby(host);
            }
            case PARTITION_LEADER -> {
                cluster.heal(host);
                awaitLeaderAndStandby(host);
            }
            default -> cluster.heal(host);
        }
    }

    /** kvtier's soak sets aside what it has stored now, and checks at its end that all of it is still there. */
    private static void seal(Running kvtier) throws IOException {
        kvtier.process().getOutputStream().write("seal\n".getBytes(StandardCharsets.UTF_8));
        kvtier.process().getOutputStream().flush();
    }

    /** kvtier soak ends at a {@code stop} line, the raw one at EOF on stdin; both print their report then. */
    private void stop(Running r) throws IOException {
        if (r.client() == Client.KVTIER) {
            r.process().getOutputStream().write("stop\n".getBytes(StandardCharsets.UTF_8));
        }
        r.process().getOutputStream().close();
    }

    private ClientResult result(Running r, double begin, double faultAt, double healAt, double endAt) throws Exception {
        String endedHow;
        if (r.process().waitFor(END_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
            endedHow = "ended " + String.format("%.0f s", now() - endAt) + " after it was told to";
        } else {
            r.process().destroyForcibly().waitFor();
            endedHow = "did NOT end within " + END_TIMEOUT.toSeconds() + " s of being told to (killed; report lost)";
        }
        // Mooncake's RPC layer logs to stdout too: the report is the line that is a JSON object.
        String report = r.stdout().get(10, TimeUnit.SECONDS).lines().filter(l -> l.startsWith("{\""))
                .reduce((first, last) -> last).orElse("");
        Files.writeString(logs.resolve(r.client().name().toLowerCase() + ".stdout"), r.stdout().get());
        long longest = r.seconds().stream().mapToLong(s -> Math.max(s.waitMaxMs(), s.waitingMs())).max().orElse(0);
        Map<String, Long> errors = new TreeMap<>();
        Map<String, Long> byOperation = new LinkedHashMap<>();
        long corrupted = -1;
        long lost = -1;
        long missingAfterFault = -1;
        SealedKeys sealed = SealedKeys.NONE;
        if (report.startsWith("{")) {
            Config parsed = ConfigFactory.parseString(report);
            if (r.client() == Client.KVTIER) {
                Config instance = parsed.getConfigList("instances").get(0);
                longest = Math.max(longest, Math.round(instance.getDouble("longest_wait_ms")));
                instance.getObject("errors_by_kind").unwrapped().forEach((k, v) -> errors.put(k, ((Number) v).longValue()));
                corrupted = instance.getLong("corrupted");
                lost = instance.getLong("lost");
                if (corrupted > 0) {
                    // Stale (an older version of the key) and foreign (anything else) have different causes.
                    System.out.printf("[cluster] %s: corrupted loads: stale %d, foreign %d%n", plan.name(),
                            instance.getLong("ops.load.stale"), instance.getLong("ops.load.foreign"));
                }
                sealed = new SealedKeys(instance.getLong("sealed.keys"), instance.getLong("sealed.verified"),
                        instance.getLong("sealed.missing"), instance.getLong("sealed.corrupted"));
                missingAfterFault = 0;
                for (String op : List.of("store", "lookup", "load", "delete")) {
                    Config stats = instance.getConfig("ops." + op);
                    byOperation.put(op, stats.getLong("errors"));
                    missingAfterFault += stats.getLong("missing_after_fault");
                }
            } else {
                longest = Math.max(longest, Math.round(parsed.getDouble("longest_wait_ms")));
                parsed.getObject("errors_by_code").unwrapped().forEach((k, v) -> errors.put(k, ((Number) v).longValue()));
                corrupted = parsed.getLong("corrupted");
                lost = parsed.getLong("lost");
                missingAfterFault = 0;
            }
        }
        List<Second> seconds = List.copyOf(r.seconds());
        StringBuilder csv = new StringBuilder("at_s,batches_per_s,ok_mb_per_s,wait_max_ms,waiting_ms,errors_so_far,unhealthy\n");
        seconds.forEach(s -> csv.append(String.format("%.3f,%.0f,%.1f,%d,%d,%d,%b%n", s.at(), s.opsPerSecond(), s.okMbPerSecond(),
                s.waitMaxMs(), s.waitingMs(), s.errorsSoFar(), s.unhealthy())));
        Files.writeString(logs.resolve(r.client().name().toLowerCase() + ".seconds.csv"), csv);
        ClientResult partial = new ClientResult(r.client(), seconds, longest, errors, byOperation, corrupted, lost,
                missingAfterFault, sealed, 0, 0, 0, null, endedHow);
        double before = partial.mean(begin + WARM_UP, faultAt);
        double during = partial.mean(faultAt + 5, healAt);
        double after = partial.mean(healAt + 10, endAt);
        Double recovery = partial.secondsToRecover(healAt, before);
        return new ClientResult(r.client(), seconds, longest, errors, byOperation, corrupted, lost, missingAfterFault,
                sealed, before, during, after, recovery, endedHow);
    }

    private double now() {
        return (System.nanoTime() - startNanos) / 1e9;
    }

    private void sleepUntil(double at) throws InterruptedException {
        long millis = Math.round((at - now()) * 1000);
        if (millis > 0) {
            TimeUnit.MILLISECONDS.sleep(millis);
        }
    }

    /**
     * {@code scenario FAULT [--replicas R] [--before S] [--during S] [--after S] [--flap S]
     * [--batch-timeout-ms MS] [--client-ttl S] [--clients kvtier,raw] [--logs DIR]}; prints the [cluster] lines.
     */
    public static void main(String[] args) throws Exception {
        if (args.length < 1 || args.length % 2 != 1) {
            System.err.println("usage: scenario none|partition-node|oneway-node-in|oneway-node-out|flap-node|pause-node|"
                    + "kill-node|partition-master|kill-leader|partition-leader|random [--replicas R] [--before S] [--during S] [--after S] [--flap S] "
                    + "[--batch-timeout-ms MS] [--client-ttl S] [--clients kvtier,raw] [--rounds N (random, kill-leader, partition-leader)] [--logs DIR]");
            System.exit(2);
        }
        Fault fault = Fault.valueOf(args[0].toUpperCase().replace('-', '_'));
        Map<String, String> options = new LinkedHashMap<>(Map.of("--replicas", "2", "--before", "15", "--during", "20",
                "--after", "15", "--flap", "5", "--batch-timeout-ms", "2000", "--clients", "kvtier,raw", "--rounds", "1",
                "--client-ttl", "0", "--logs", ""));
        for (int i = 1; i < args.length; i += 2) {
            if (!options.containsKey(args[i])) {
                System.err.println("scenario: unknown option " + args[i]);
                System.exit(2);
            }
            options.put(args[i], args[i + 1]);
        }
        List<Client> clients = new ArrayList<>();
        for (String c : options.get("--clients").split(",")) {
            clients.add(Client.valueOf(c.trim().toUpperCase()));
        }
        Plan plan = new Plan(args[0], fault, Integer.parseInt(options.get("--replicas")),
                Duration.ofSeconds(Long.parseLong(options.get("--before"))),
                Duration.ofSeconds(Long.parseLong(options.get("--during"))),
                Duration.ofSeconds(Long.parseLong(options.get("--after"))),
                Duration.ofSeconds(Long.parseLong(options.get("--flap"))),
                Long.parseLong(options.get("--batch-timeout-ms")), clients, 4, 8, 256 << 10, 1024,
                Integer.parseInt(options.get("--rounds")), Integer.parseInt(options.get("--client-ttl")));
        // A temporary directory only when none was named, so that named runs leave no empty ones behind.
        Path logs = options.get("--logs").isEmpty() ? Files.createTempDirectory("kvtier-scenario-") : Path.of(options.get("--logs"));
        Result result = run(plan, logs);
        result.lines().forEach(System.out::println);
        System.out.println("[cluster] logs in " + logs);
    }
}
