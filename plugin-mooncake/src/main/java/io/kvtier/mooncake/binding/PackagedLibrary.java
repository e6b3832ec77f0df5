package io.kvtier.mooncake.binding;

import io.kvtier.mooncake.config.ConnectorBuild;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The connector packaged in the plugin jar ({@value #RESOURCE}), extracted to a temporary file
 * once per class loader that holds it, since dlopen needs a file.
 */
public final class PackagedLibrary {
    public static final String RESOURCE = "native/linux-x86_64/libkvtier_mooncake.so";
    public static final String BUILD_FACTS = "kvtier/adapters/mooncake_store/connector.properties";

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

    /**
     * What the plugin jar carries: whether a connector is packaged and, when it is, the Mooncake
     * commit it was built from and the aids it links over Mooncake's own symbols (the build's
     * {@value #BUILD_FACTS}; native/wraps.cmake describes each aid).
     */
    public static Map<String, String> describe(ClassLoader resources) {
        if (resources == null || resources.getResource(RESOURCE) == null) {
            return Map.of("connector", "not packaged: this plugin jar was built without Mooncake (rebuild with BUILD_MOONCAKE=1)");
        }
        Properties facts = new Properties();
        try (InputStream in = resources.getResourceAsStream(BUILD_FACTS)) {
            if (in != null) {
                facts.load(in);
            }
        } catch (IOException e) {
            return Map.of("connector", "packaged (" + RESOURCE + "); " + BUILD_FACTS + " unreadable: " + e);
        }
        String unknown = "unknown (no " + BUILD_FACTS + ")";
        return Map.of("connector", "packaged (" + RESOURCE + ")",
                "mooncake_commit", facts.getProperty("mooncake.commit", unknown),
                "connector_aids", facts.getProperty("connector.aids", unknown));
    }

    /** What the build facts in the jar say about the packaged connector. */
    static ConnectorBuild build(ClassLoader resources) {
        if (resources == null || resources.getResource(RESOURCE) == null) {
            return ConnectorBuild.unknown("the plugin jar carries no connector, and one on the library search path "
                    + "comes without build facts");
        }
        return ConnectorBuild.read(resources.getResourceAsStream(BUILD_FACTS), "the plugin jar's " + BUILD_FACTS);
    }

    private static boolean isLinuxX8664() {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        return os.contains("linux") && (arch.equals("amd64") || arch.equals("x86_64"));
    }
}
