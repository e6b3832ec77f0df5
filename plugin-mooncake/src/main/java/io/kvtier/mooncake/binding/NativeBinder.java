package io.kvtier.mooncake.binding;

import io.kvtier.mooncake.binding.NativeAbi.MooncakeNative;
import com.kenai.jffi.Library;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import jnr.ffi.LibraryLoader;

/**
 * Binds a native connector after the ABI handshake: the library is opened and
 * {@code kvt_abi_version} looked up by itself (dlopen, dlsym) before JNR binds any other symbol,
 * since binding a library with other signatures would let the first batch call crash the JVM.
 */
final class NativeBinder {
    /** dlopen and symbol binding happen once per path per JVM; every instance shares the binding. */
    private static final Map<String, MooncakeNative> BOUND = new ConcurrentHashMap<>();

    private NativeBinder() {}

    /**
     * @param library a path, or a bare file name for dlopen to look up
     * @throws IllegalStateException in one line, when the library cannot be opened, is not a
     *                               kvtier connector, or speaks another ABI
     */
    static MooncakeNative bind(String library) {
        try {
            return BOUND.computeIfAbsent(library, NativeBinder::handshakeAndBind);
        } catch (LinkageError | RuntimeException e) {
            throw new IllegalStateException(firstLine(e.getMessage()), e);
        }
    }

    private static MooncakeNative handshakeAndBind(String library) {
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

    private static String firstLine(String message) {
        if (message == null) {
            return "(no message)";
        }
        int nl = message.indexOf('\n');
        return nl < 0 ? message : message.substring(0, nl);
    }
}
