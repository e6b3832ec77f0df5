package io.kvtier.hostlib;

import io.kvtier.spi.ConfigurationException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Files a user names for reading, checked before they are read: what they are, and how large. */
public final class InputFiles {
    private InputFiles() {}

    /**
     * The size of {@code file}, a regular file of at most {@code maxBytes}.
     *
     * @param origin what names the file in messages, e.g. {@code --in /tmp/x}
     * @throws ConfigurationException calling a missing file, a directory, a FIFO or device, or a file
     *                                too large what it is
     */
    public static long requireRegular(Path file, String origin, long maxBytes) {
        if (file.toString().isEmpty()) {
            // An empty path is the working directory to the file system; the user meant no directory.
            throw new ConfigurationException(origin.isEmpty() ? "''" : origin, "an empty path names no file");
        }
        if (Files.isDirectory(file)) {
            throw new ConfigurationException(origin, "is a directory, not a file");
        }
        if (!Files.exists(file)) {
            throw new ConfigurationException(origin, "no such file");
        }
        if (!Files.isRegularFile(file)) {
            throw new ConfigurationException(origin, "is not a regular file (a FIFO, socket or device)");
        }
        if (!Files.isReadable(file)) {
            throw new ConfigurationException(origin, "is not readable");
        }
        long size;
        try {
            size = Files.size(file);
        } catch (IOException e) {
            throw new ConfigurationException(origin, "cannot be read: " + e.getMessage());
        }
        if (size > maxBytes) {
            throw new ConfigurationException(origin, "is " + size + " bytes, more than the limit of " + maxBytes);
        }
        return size;
    }
}
