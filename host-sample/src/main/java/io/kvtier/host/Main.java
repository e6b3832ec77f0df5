package io.kvtier.host;

import io.kvtier.host.replay.ReplayCommand;
import io.kvtier.host.soak.SoakCommand;
import io.kvtier.hostlib.L2AdapterRegistry;
import io.kvtier.hostlib.PluginDirectories;
import io.kvtier.spi.ConfigurationException;
import java.io.File;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Command;
import picocli.CommandLine.HelpCommand;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine;

/**
 * The kvtier CLI. Exit codes: 0 success, 1 runtime or verification failure, 2 usage or configuration error.
 * Every subcommand inherits -h/--help and -V/--version from here.
 */
@Command(name = "kvtier", mixinStandardHelpOptions = true, version = "kvtier 0.1.0", scope = ScopeType.INHERIT,
        description = "A pluggable KV-cache storage host: runs L2 adapters declared in HOCON or JSON.",
        subcommands = {AdaptersCommand.class, ValidateCommand.class, KeyCommand.class, RunCommand.class,
                PutCommand.class, GetCommand.class, SoakCommand.class, ReplayCommand.class, ServeCommand.class,
                HelpCommand.class})
public final class Main implements Runnable {
    public static final int OK = 0;
    public static final int FAILED = 1;
    public static final int USAGE = 2;
    /** The system property naming the plugins directory, whose subdirectories are isolated plugins. */
    static final String PLUGINS_DIR = "kvtier.plugins.dir";

    @Override
    public void run() {
        throw new CommandLine.ParameterException(new CommandLine(this), "a subcommand is required: "
                + String.join(", ", new CommandLine(this).getSubcommands().keySet()));
    }

    public static void main(String[] args) {
        System.exit(execute(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }

    /** Runs one command line; errors go to {@code err} as one line. */
    public static int execute(String[] args, PrintWriter out, PrintWriter err) {
        CommandLine cli = new CommandLine(new Main());
        cli.setOut(out);
        cli.setErr(err);
        // An argument is what it says: "@x" is not the contents of a file x, which no bound would cover.
        cli.setExpandAtFiles(false);
        cli.setParameterExceptionHandler((e, a) -> {
            err.println(ErrorLine.of("kvtier: " + e.getMessage()));
            return USAGE;
        });
        cli.setExecutionExceptionHandler((e, commandLine, parsed) -> {
            err.println(ErrorLine.of("kvtier: " + (e.getMessage() == null ? e.toString() : e.getMessage())));
            return e instanceof ConfigurationException || e instanceof IllegalArgumentException ? USAGE : FAILED;
        });
        return cli.execute(args);
    }

    /**
     * The adapter types on the class path, plus those of the isolated plugins in the directories
     * under {@value #PLUGINS_DIR} (which bin/kvtier sets); a provider that fails to load is
     * reported, not fatal, but a jar that cannot be read is a configuration error.
     */
    public static L2AdapterRegistry registry(PrintWriter err) {
        requireReadableJars(System.getProperty("java.class.path"));
        ClassLoader host = Main.class.getClassLoader();
        String pluginsDir = System.getProperty(PLUGINS_DIR);
        L2AdapterRegistry registry = pluginsDir == null || pluginsDir.isBlank() ? L2AdapterRegistry.load(host)
                : L2AdapterRegistry.load(host, Path.of(pluginsDir));
        registry.loadFailures().forEach(f -> err.println(ErrorLine.of("kvtier: warning: an adapter provider failed to load: " + f)));
        return registry;
    }

    /**
     * Refuses a jar on {@code classPath} that cannot be read: java skips it without a word, and
     * bin/kvtier puts there the jars of plugins/ and KVTIER_PLUGINS, whose types would just be missing.
     */
    static void requireReadableJars(String classPath) {
        for (String entry : classPath.split(File.pathSeparator)) {
            Path path = Path.of(entry);
            if (Files.isRegularFile(path)) {
                PluginDirectories.requireReadableJar(path);
            }
        }
    }
}
