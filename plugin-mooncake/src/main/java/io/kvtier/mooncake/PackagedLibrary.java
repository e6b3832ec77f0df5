package io.kvtier.mooncake;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The connector packaged in the plugin jar ({@value #RESOURCE}), extracted to a temporary file
 * once per class loader that holds it, since dlopen needs a file.
 */
final class PackagedLibrary {
    static final String RESOURCE = "native/linux-x86_64/libkvtier_mooncake.so";

    private static final Map<ClassLoader, Path> EXTRACTED = new ConcurrentHashMap<>();

    private PackagedLibrary() {}

    /**
     * @param tried where to say why there is no extracted copy
     * @return the extracted file, or null (with the reason added to {@code tried}, if there is one)
     */
    static Path extract(ClassLoader resources, List<String> tried) {
        if (!isLinuxX8664()) {
            tried.add("packaged copy " + RESOURCE + ": not for this platform (" + System.getProperty("os.name") + "/"
                    + System.getProperty("os.arch") + ")");
            return null;
        }
        if (resources == null) {
            return null;
        }
        synchronized (PackagedLibrary.class) {
            Path extracted = EXTRACTED.get(resources);
            if (extracted != null) {
                return extracted;
            }
            try (InputStream in = resources.getResourceAsStream(RESOURCE)) {
                if (in == null) {
                    tried.add("packaged copy " + RESOURCE + ": not in the plugin jar (built without Mooncake)");
                    return null;
                }
                Path tmp = Files.createTempFile("libkvtier_mooncake", ".so");
                tmp.toFile().deleteOnExit();
                Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
                EXTRACTED.put(resources, tmp);
                return tmp;
            } catch (IOException e) {
                tried.add("packaged copy " + RESOURCE + ": cannot extract: " + e);
                return null;
            }
        }
    }

    private static boolean isLinuxX8664() {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        return os.contains("linux") && (arch.equals("amd64") || arch.equals("x86_64"));
    }
}
