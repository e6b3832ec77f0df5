package io.kvtier.host;

import java.io.PrintWriter;
import java.io.StringWriter;

/** Runs one kvtier command line in this JVM and captures what it printed. */
public final class HostCli {
    public record Result(int exit, String out, String err) {}

    private HostCli() {}

    public static Result kvtier(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = Main.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Result(exit, out.toString(), err.toString());
    }
}
