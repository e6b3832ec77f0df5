package io.kvtier.mooncake;

import io.kvtier.mooncake.NativeAbi.MooncakeNative;
import com.kenai.jffi.Library;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import jnr.ffi.LibraryLoader;

/**
 * Finds and loads the native connector, in this order: the system property
 * {@value #PROPERTY}, the environment variable {@value #ENV}, the copy packaged in the plugin jar
 * ({@value #RESOURCE}, extracted to a temporary file), then the library search path for
 * {@value #LIBRARY_NAME}. An explicit path (property or environment) is authoritative: if it does
 * not load, that is the error, because silently loading some other connector would hide a
 * deployment mistake. The test double is never found on its own; tests name it explicitly.
 */
final class NativeLibraryLocator {
    static final String PROPERTY = "kvtier.mooncake.library";
    static final String ENV = "KVTIER_MOONCAKE_LIBRARY";
    static final String RESOURCE = "native/linux-x86_64/libkvtier_mooncake.so";
    static final String LIBRARY_NAME = "kvtier_mooncake";

    /** dlopen and symbol binding happen once per path per JVM; every instance shares the binding. */
    private static final Map<String, MooncakeNative> LOADED = new ConcurrentHashMap<>();
    /** The packaged copy is extracted once per class loader that holds it. */
    private static final Map<ClassLoader, Path> EXTRACTED = new ConcurrentHashMap<>();

    private final String explicitPath;
    private final String explicitSource;
    private final ClassLoader resources;

    private NativeLibraryLocator(String explicitPath, String explicitSource, ClassLoader resources) {
        this.explicitPath = explicitPath;
        this.explicitSource = explicitSource;
        this.resources = resources;
    }

    /** The product's lookup: property, environment, jar, search path. */
    static NativeLibraryLocator fromEnvironment() {
        String property = System.getProperty(PROPERTY);
        if (property != null && !property.isBlank()) {
            return new NativeLibraryLocator(property, "system property " + PROPERTY, null);
        }
        String env = System.getenv(ENV);
        if (env != null && !env.isBlank()) {
            return new NativeLibraryLocator(env, "environment variable " + ENV, null);
        }
        return searching(NativeLibraryLocator.class.getClassLoader());
    }

    /** No explicit path: the packaged copy through {@code resources}, then the search path. */
    static NativeLibraryLocator searching(ClassLoader resources) {
        return new NativeLibraryLocator(null, null, resources);
    }

    /** Exactly this file (tests point it at the test double, or at a path that does not exist). */
    static NativeLibraryLocator explicit(Path path) {
        return new NativeLibraryLocator(path.toString(), "explicit path", null);
    }

    /**
     * @throws IllegalStateException naming {@code BUILD_MOONCAKE} and every place searched
     */
    MooncakeNative load() {
        List<String> tried = new ArrayList<>();
        if (explicitPath != null) {
            Path path = Path.of(explicitPath).toAbsolutePath();
            MooncakeNative lib = tryPath(path.toString(), explicitSource, tried);
            if (lib != null) {
                return lib;
            }
            // A file that is there but refused is named alone: the build hint would only mislead.
            throw Files.isRegularFile(path) ? refused(tried) : notFound(tried);
        }
        Path packaged = extractPackagedCopy(tried);
        if (packaged != null) {
            MooncakeNative lib = tryPath(packaged.toString(), "packaged copy " + RESOURCE, tried);
            if (lib != null) {
                return lib;
            }
        }
        MooncakeNative lib = tryLoad(onSearchPath(), "library '" + LIBRARY_NAME + "' on the search path (java.library.path="
                + System.getProperty("java.library.path", "") + ", jnr.ffi.library.path="
                + System.getProperty("jnr.ffi.library.path", "") + ")", tried);
        if (lib != null) {
            return lib;
        }
        throw notFound(tried);
    }

    private static MooncakeNative tryPath(String path, String source, List<String> tried) {
        if (!Files.isRegularFile(Path.of(path))) {
            tried.add(path + " (" + source + "): " + (Files.isDirectory(Path.of(path)) ? "a directory, not a library file"
                    : Files.exists(Path.of(path)) ? "not a regular file" : "no such file"));
            return null;
        }
        return tryLoad(path, path + " (" + source + ")", tried);
    }

    private static MooncakeNative tryLoad(String pathOrName, String description, List<String> tried) {
        try {
            return LOADED.computeIfAbsent(pathOrName, NativeLibraryLocator::bind);
        } catch (LinkageError | RuntimeException e) {
            tried.add(description + ": " + firstLine(e.getMessage()));
            return null;
        }
    }

    /**
     * Binds the connector after checking its ABI version. The library is opened and
     * {@code kvt_abi_version} looked up by itself (dlopen, dlsym) before JNR binds any other symbol:
     * binding a library with other signatures would let the first batch call crash the JVM.
     *
     * @throws IllegalStateException when the library cannot be opened, is not a kvtier connector,
     *                               or speaks another ABI
     */
    private static MooncakeNative bind(String library) {
        Library opened = Library.getCachedInstance(library, Library.LAZY | Library.LOCAL);
        if (opened == null) {
            throw new IllegalStateException("cannot open it: " + firstLine(Library.getLastError()));
        }
        if (opened.getSymbolAddress("kvt_abi_version") == 0L) {
            throw new IllegalStateException("not a kvtier Mooncake connector: it exports no kvt_abi_version");
        }
        int version = LibraryLoader.create(NativeAbi.AbiVersion.class).load(library).kvt_abi_version();
        if (version != NativeAbi.VERSION) {
            throw new IllegalStateException("a kvtier Mooncake connector of ABI version " + version
                    + ", but this plugin needs version " + NativeAbi.VERSION + ": rebuild the connector from this plugin's sources");
        }
        // failImmediately() reports a missing function only as "unknown": name it ourselves.
        for (java.lang.reflect.Method function : MooncakeNative.class.getMethods()) {
            if (opened.getSymbolAddress(function.getName()) == 0L) {
                throw new IllegalStateException("an incomplete kvtier Mooncake connector: it exports no "
                        + function.getName() + ", which ABI version " + NativeAbi.VERSION + " has");
            }
        }
        return LibraryLoader.create(MooncakeNative.class).failImmediately().load(library);
    }

    /**
     * The connector in {@code jnr.ffi.library.path} or {@code java.library.path}, else its file name
     * alone, which dlopen looks up in the system's own places ({@code LD_LIBRARY_PATH}, ld.so.cache).
     */
    private static String onSearchPath() {
        String file = System.mapLibraryName(LIBRARY_NAME);
        for (String property : List.of("jnr.ffi.library.path", "java.library.path")) {
            for (String dir : System.getProperty(property, "").split(File.pathSeparator)) {
                if (!dir.isBlank() && Files.isRegularFile(Path.of(dir, file))) {
                    return Path.of(dir, file).toAbsolutePath().toString();
                }
            }
        }
        return file;
    }

    private Path extractPackagedCopy(List<String> tried) {
        if (!isLinuxX8664()) {
            tried.add("packaged copy " + RESOURCE + ": not for this platform (" + System.getProperty("os.name") + "/"
                    + System.getProperty("os.arch") + ")");
            return null;
        }
        if (resources == null) {
            return null;
        }
        synchronized (NativeLibraryLocator.class) {
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

    private static String firstLine(String message) {
        if (message == null) {
            return "(no message)";
        }
        int nl = message.indexOf('\n');
        return nl < 0 ? message : message.substring(0, nl);
    }

    private static IllegalStateException refused(List<String> tried) {
        return new IllegalStateException("mooncake_store: refused the native connector " + String.join("; ", tried));
    }

    private static IllegalStateException notFound(List<String> tried) {
        return new IllegalStateException("mooncake_store: cannot load the native Mooncake connector (libkvtier_mooncake.so). "
                + "Searched: " + String.join("; ", tried) + ". The connector is built only against a Mooncake install: "
                + "rebuild the plugin with BUILD_MOONCAKE=1 MOONCAKE_INCLUDE_DIR=<mooncake headers> MOONCAKE_LIB_DIR=<mooncake libs>, "
                + "or set -D" + PROPERTY + " / " + ENV + " to a built libkvtier_mooncake.so");
    }
}
