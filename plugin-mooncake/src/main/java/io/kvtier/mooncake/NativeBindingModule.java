package io.kvtier.mooncake;

import io.kvtier.mooncake.NativeAbi.MooncakeNative;
import com.google.inject.AbstractModule;
import com.google.inject.Provides;
import com.google.inject.Singleton;
import java.util.function.Supplier;

/**
 * The provider's parent injector: the native binding, shared by every instance the provider
 * creates. A failed load is not cached, so a later creation retries (and reports) it again.
 */
final class NativeBindingModule extends AbstractModule {
    private final Supplier<MooncakeNative> loader;

    NativeBindingModule(Supplier<MooncakeNative> loader) {
        this.loader = loader;
    }

    @Provides
    @Singleton
    MooncakeNative binding() {
        return loader.get();
    }
}
