package io.kvtier.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * capacity.md's sizing experiment runs as written, from the unpacked distribution: each shell block
 * of "The experiment, step by step" as one script, its ports replaced by free ones. Whatever a
 * block starts in the background is stopped when it ends.
 */
@ExtendWith(RealMooncakeAvailable.class)
class RealSizingRecipeTest {
    private static final Path PAGE = HostProcess.ROOT.resolve("docs/capacity.md");
    private static final Pattern SH_BLOCK = Pattern.compile("```sh\n(.*?)```", Pattern.DOTALL);
    /** The ports the page uses: the master's RPC and admin ports, the node's HTTP port. */
    private static final List<String> PORTS = List.of("50051", "9003", "8080");
    private static final long TIMEOUT_SECONDS = 300;

    @Test
    void theExperimentsBlocksRunFromTheUnpackedDistribution(@TempDir Path dir) throws Exception {
        List<String> blocks = recipe();
        assertThat(blocks).as("the oracle alone, then Mooncake at the same capacity").hasSize(2);
        HostProcess.unpack(DistributionTest.TARBALL, dir);
        Path home = dir.resolve("kvtier-" + System.getProperty("kvtier.version", "0.1.0-SNAPSHOT"));

        String memory = run(home, dir, blocks.get(0));
        assertThat(memory).contains("sized (memory): 1000 requests", "exact LRU of 8192 blocks", "PASSED");
        String mooncake = run(home, dir, onFreePorts(blocks.get(1)));
        assertThat(mooncake).contains("1000 requests", "exact LRU of 8192 blocks", "PASSED");
    }

    /** The shell blocks of the experiment's section. */
    private static List<String> recipe() throws IOException {
        String page = Files.readString(PAGE, StandardCharsets.UTF_8);
        int from = page.indexOf("### The experiment, step by step");
        assertThat(from).as("the experiment's section in " + PAGE).isNotNegative();
        int to = page.indexOf("\n## ", from);
        Matcher m = SH_BLOCK.matcher(page.substring(from, to < 0 ? page.length() : to));
        List<String> blocks = new ArrayList<>();
        while (m.find()) {
            blocks.add(m.group(1));
        }
        return blocks;
    }

    /** The block with each of the page's ports, after a {@code :} or {@code =}, replaced by a free one. */
    private static String onFreePorts(String block) throws IOException {
        for (String port : PORTS) {
            assertThat(block).as("the page's port " + port).contains(":" + port);
            block = block.replaceAll("(?<=[:=])" + port + "\\b", Integer.toString(freePort()));
        }
        return block;
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /** Runs {@code block} with bash in {@code home}; its output, once it exited 0. */
    private static String run(Path home, Path dir, String block) throws Exception {
        Path out = dir.resolve("block.out");
        Path tmp = Files.createDirectories(dir.resolve("tmp"));
        String script = "set -e\ntrap 'kill $(jobs -p) 2>/dev/null || true; wait' EXIT\n" + block;
        ProcessBuilder builder = new ProcessBuilder("bash", "-c", script).directory(home.toFile())
                .redirectErrorStream(true).redirectOutput(out.toFile());
        builder.environment().put("KVTIER_JAVA_OPTS", "-Djava.io.tmpdir=" + tmp);
        Process bash = builder.start();
        boolean ended = bash.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        if (!ended) {
            bash.descendants().forEach(ProcessHandle::destroyForcibly);
            bash.destroyForcibly();
        }
        String output = Files.readString(out, StandardCharsets.UTF_8);
        assertThat(ended).as("ended within %d s:%n%s%n%s", TIMEOUT_SECONDS, block, output).isTrue();
        assertThat(bash.exitValue()).as("%s%n%s", block, output).isZero();
        return output;
    }
}
