package io.kvtier.mooncake.binding;

import io.kvtier.mooncake.binding.NativeAbi.MooncakeNative;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where Mooncake's own log (glog) goes. By default to one file per process,
 * {@code <java.io.tmpdir>/kvtier-mooncake-<pid>.log}, so that a user reads kvtier's one-line
 * errors without Mooncake's lines around them. {@code KVTIER_MOONCAKE_LOG} names another file, or
 * {@code stderr} to keep Mooncake's default; with Mooncake's own {@code MC_LOG_DIR} set, Mooncake
 * decides. The file holds Mooncake's warnings and errors ({@code MC_LOG_LEVEL} chooses another
 * level), is created at the first of them, so a process that had nothing to say leaves no file,
 * and stays within {@code KVTIER_MOONCAKE_LOG_MAX} with the one older file it rotates into
 * ({@code <file>.1}). The default file goes when the JVM exits normally (not on a crash, which runs
 * no shutdown hook), unless a client's creation failed and its error named the file. The choice is
 * made once per process, before the first client is created, as glog's is.
 */
final class MooncakeLog {
    static final String ENV = "KVTIER_MOONCAKE_LOG";
    static final String MAX_ENV = "KVTIER_MOONCAKE_LOG_MAX";
    /** Room for hours of a busy storage node's warnings (one per transfer), and little on any disk. */
    static final long DEFAULT_MAX_BYTES = 16L << 20;
    private static final Pattern SIZE = Pattern.compile("(\\d{1,9})\\s*(|B|KiB|MiB|GiB)", Pattern.CASE_INSENSITIVE);
    private static Optional<Path> decided;
    private static volatile boolean keep;

    private MooncakeLog() {}

    /**
     * Redirects the log as the environment says, the first time; returns the file it goes to, or
     * empty when it stays where Mooncake sends it.
     *
     * @throws IllegalArgumentException when {@code KVTIER_MOONCAKE_LOG_MAX} is not a size
     */
    static synchronized Optional<Path> redirect(MooncakeNative lib, UnaryOperator<String> env) {
        if (decided == null) {
            Optional<Path> chosen = chosenBy(env);
            long maxBytes = maxBytes(env);
            chosen.ifPresent(path -> {
                if (lib.kvt_log_to_file(path.toString(), maxBytes) != 0) {
                    throw new IllegalStateException("mooncake_store: cannot send Mooncake's log to " + path + ": "
                            + lib.kvt_last_error());
                }
            });
            if (chosen.isPresent() && isBlank(env.apply(ENV))) {
                Path path = chosen.get();
                Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                    if (!keep) {
                        remove(path);
                    }
                }, "kvtier-mooncake-log"));
            }
            decided = chosen;
        }
        return decided;
    }

    /** Keeps the default file at exit: an error the user reads names it. */
    static void keep() {
        keep = true;
    }

    /**
     * Removes the file and its older one. Little is lost with them: a crash runs no shutdown hook,
     * and a user who wants a normal run's log names the file.
     */
    static void remove(Path path) {
        try {
            Files.deleteIfExists(path);
            Files.deleteIfExists(Path.of(path + ".1"));
        } catch (IOException e) {
            // Left in the temporary directory, as every log was before; nothing to tell at exit.
        }
    }

    private static boolean isBlank(String s) {
        return s == null || s.isBlank();
    }

    static Optional<Path> chosenBy(UnaryOperator<String> env) {
        String setting = env.apply(ENV);
        if ("stderr".equals(setting) || env.apply("MC_LOG_DIR") != null) {
            return Optional.empty();
        }
        if (!isBlank(setting)) {
            return Optional.of(Path.of(setting).toAbsolutePath());
        }
        return Optional.of(Path.of(System.getProperty("java.io.tmpdir"), "kvtier-mooncake-" + ProcessHandle.current().pid() + ".log"));
    }

    /** The bound on the log file and its older one together: bytes, or KiB, MiB or GiB; at least 64 KiB. */
    static long maxBytes(UnaryOperator<String> env) {
        String setting = env.apply(MAX_ENV);
        if (setting == null || setting.isBlank()) {
            return DEFAULT_MAX_BYTES;
        }
        Matcher m = SIZE.matcher(setting.trim());
        long bytes = m.matches() ? Long.parseLong(m.group(1)) << switch (m.group(2).toLowerCase(Locale.ROOT)) {
            case "kib" -> 10;
            case "mib" -> 20;
            case "gib" -> 30;
            default -> 0;
        } : -1;
        if (bytes < 64 << 10) {
            throw new IllegalArgumentException("environment variable " + MAX_ENV + " = '" + setting
                    + "': must be a size of at least 64 KiB, in bytes or with KiB, MiB or GiB, e.g. '16 MiB'");
        }
        return bytes;
    }
}
