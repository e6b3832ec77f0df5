package io.kvtier.mooncake.binding;

import io.kvtier.mooncake.binding.NativeAbi.MooncakeNative;
import io.kvtier.mooncake.config.ConnectorBuild;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Finds the native connector, in this order: the system property {@value #PROPERTY}, the
 * environment variable {@value #ENV}, the copy packaged in the plugin jar ({@link PackagedLibrary}),
 * then the library search path for {@value #LIBRARY_NAME}, and binds the first that loads
 * ({@link NativeBinder}). An explicit path (property or environment) is authoritative: if it does
 * not load, that is the error, because silently loading some other connector would hide a
 * deployment mistake. The test double is never found on its own; tests name it explicitly.
 */
public final class NativeLibraryLocator {
    public static final String PROPERTY = "kvtier.mooncake.library";
    static final String ENV = "KVTIER_MOONCAKE_LIBRARY";
    static final String LIBRARY_NAME = "kvtier_mooncake";

    private final String explicitPath;
    private final String explicitSource;
    private final ClassLoader resources;

    private NativeLibraryLocator(String explicitPath, String explicitSource, ClassLoader resources) {
        this.explicitPath = explicitPath;
        this.explicitSource = explicitSource;
        this.resources = resources;
    }

    /** The product's lookup: property, environment, jar, search path. */
    public static NativeLibraryLocator fromEnvironment() {
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
    public static NativeLibraryLocator searching(ClassLoader resources) {
        return new NativeLibraryLocator(null, null, resources);
    }

    /** Exactly this file (tests point it at the test double, or at a path that does not exist). */
    public static NativeLibraryLocator explicit(Path path) {
        return new NativeLibraryLocator(path.toString(), "explicit path", null);
    }

    /**
     * The build facts of the connector that {@link #load} would bind, read without loading it: a
     * declaration is parsed before any instance is created. For an explicit path, the
     * connector.properties beside it (the native build writes both into its build directory by
     * default); otherwise the plugin jar's.
     */
    public ConnectorBuild build() {
        if (explicitPath == null) {
            return PackagedLibrary.build(resources);
        }
        Path facts = Path.of(explicitPath).toAbsolutePath().resolveSibling(Path.of(PackagedLibrary.BUILD_FACTS).getFileName());
        String where = facts + " (beside the connector named by " + explicitSource + ")";
        try {
            return ConnectorBuild.read(Files.isRegularFile(facts) ? Files.newInputStream(facts) : null, where);
        } catch (IOException e) {
            return ConnectorBuild.unknown(where + " is unreadable: " + e);
        }
    }

    /**
     * @throws IllegalStateException naming {@code BUILD_MOONCAKE} and every place searched
     */
    public MooncakeNative load() {
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
        Path packaged = PackagedLibrary.extract(resources, tried);
        MooncakeNative lib = null;
        if (packaged != null) {
            lib = tryPath(packaged.toString(), "packaged copy " + PackagedLibrary.RESOURCE, tried);
            if (lib != null) {
                return lib;
            }
        }
        lib = tryBind(onSearchPath(), "library '" + LIBRARY_NAME + "' on the search path (java.library.path="
                + System.getProperty("java.library.path", "") + ", jnr.ffi.library.path="
                + System.getProperty("jnr.ffi.library.path", "") + ")", tried);
        if (lib != null) {
            return lib;
        }
        // A packaged connector that this machine cannot load names why (a missing library or
        // symbol): rebuilding with BUILD_MOONCAKE would only mislead.
        throw packaged != null ? refused(tried) : notFound(tried);
    }

    private static MooncakeNative tryPath(String path, String source, List<String> tried) {
        if (!Files.isRegularFile(Path.of(path))) {
            tried.add(path + " (" + source + "): " + (Files.isDirectory(Path.of(path)) ? "a directory, not a library file"
                    : Files.exists(Path.of(path)) ? "not a regular file" : "no such file"));
            return null;
        }
        return tryBind(path, path + " (" + source + ")", tried);
    }

    private static MooncakeNative tryBind(String pathOrName, String description, List<String> tried) {
        try {
            return NativeBinder.bind(pathOrName);
        } catch (IllegalStateException e) {
            tried.add(description + ": " + e.getMessage());
            return null;
        }
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
