package io.kvtier.host;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Groups error messages by cause. The mooncake_store adapter ends its per-key errors with the
 * Mooncake code as {@code NAME (-code)}, or the bare code when it has no name for it, and a failed
 * batch says {@code Mooncake <op> batch failed (code -n)} with the connector's code; anything
 * else is reduced to a short message without keys and numbers, so errors of one kind share a group.
 */
public final class ErrorCause {
    private static final Pattern NAMED_CODE = Pattern.compile("\\b([A-Z][A-Z0-9_]+) \\((-\\d+)\\)");
    private static final Pattern BARE_CODE = Pattern.compile(": (-\\d+)$");
    /** The mooncake_store adapter's whole-batch failure, with the connector's return code. */
    private static final Pattern BATCH_CODE = Pattern.compile("^(Mooncake \\w+ batch failed) \\(code (-?\\d+)\\)");
    private static final int MAX_LENGTH = 80;

    private ErrorCause() {}

    public static String of(String message) {
        if (message == null || message.isBlank()) {
            return "error without a message";
        }
        Matcher named = NAMED_CODE.matcher(message);
        if (named.find()) {
            return named.group(1) + " (" + named.group(2) + ")";
        }
        Matcher batch = BATCH_CODE.matcher(message.trim());
        if (batch.find()) {
            return batch.group(1) + " (code " + batch.group(2) + ")";
        }
        Matcher bare = BARE_CODE.matcher(message.trim());
        if (bare.find()) {
            return "code " + bare.group(1);
        }
        String normalized = message.trim()
                .replaceAll("\\S*@\\S*", "<key>")
                .replaceAll("\\d+", "N")
                .replaceAll("\\s+", " ");
        return normalized.length() <= MAX_LENGTH ? normalized : normalized.substring(0, MAX_LENGTH - 3) + "...";
    }

    /** A batch that failed as a whole: the exception's own message, or its type when it has none. */
    public static String of(Throwable failure) {
        Throwable cause = failure;
        while ((cause instanceof java.util.concurrent.CompletionException
                || cause instanceof java.util.concurrent.ExecutionException) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        String message = cause.getMessage();
        return of(message == null || message.isBlank() ? cause.getClass().getSimpleName() : message);
    }
}
