package io.kvtier.mooncake.binding;

import io.kvtier.mooncake.binding.NativeAbi.MooncakeNative;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * Where Mooncake's own log (glog) goes. By default to one file per process,
 * {@code <java.io.tmpdir>/kvtier-mooncake-<pid>.log}, so that a user reads kvtier's one-line
 * errors without Mooncake's INFO lines and per-key error lines around them. {@code
 * KVTIER_MOONCAKE_LOG} names another file, or {@code stderr} to keep Mooncake's default; with
 * Mooncake's own {@code MC_LOG_DIR} set, Mooncake decides. The choice is made once per process,
 * before the first client is created, as glog's is.
 */
final class MooncakeLog {
    static final String ENV = "KVTIER_MOONCAKE_LOG";
    private static Optional<Path> decided;

    private MooncakeLog() {}

    /**
     * Redirects the log as the environment says, the first time; returns the file it goes to, or
     * empty when it stays where Mooncake sends it.
     */
    static synchronized Optional<Path> redirect(MooncakeNative lib, UnaryOperator<String> env) {
        if (decided == null) {
            decided = chosenBy(env);
            decided.ifPresent(path -> {
                if (lib.kvt_log_to_file(path.toString()) != 0) {
                    throw new IllegalStateException("mooncake_store: cannot send Mooncake's log to " + path + ": "
                            + lib.kvt_last_error());
                }
            });
        }
        return decided;
    }

    static Optional<Path> chosenBy(UnaryOperator<String> env) {
        String setting = env.apply(ENV);
        if ("stderr".equals(setting) || env.apply("MC_LOG_DIR") != null) {
            return Optional.empty();
        }
        if (setting != null && !setting.isBlank()) {
            return Optional.of(Path.of(setting).toAbsolutePath());
        }
        return Optional.of(Path.of(System.getProperty("java.io.tmpdir"), "kvtier-mooncake-" + ProcessHandle.current().pid() + ".log"));
    }
}
