package io.kvtier.host;

import io.kvtier.spi.AdapterContext;
import io.kvtier.spi.AdapterSettings;
import io.kvtier.spi.L2Adapter;
import io.kvtier.spi.L2AdapterProvider;
import io.kvtier.spi.SpiVersion;
import java.util.Map;

/**
 * Providers with the bugs plugins ship, each put by {@link PluginDirs} into a jar of its own under a
 * plugins directory: never registered on the test class path, where they would break every test.
 */
final class BadProviders {
    private BadProviders() {}

    /** What every provider here does right; a subclass breaks one thing. */
    abstract static class Base implements L2AdapterProvider<Object> {
        @Override
        public int spiVersion() {
            return SpiVersion.CURRENT;
        }

        @Override
        public Object parseConfig(AdapterSettings settings) {
            return settings;
        }

        @Override
        public Map<String, Object> describe(Object config) {
            return Map.of();
        }

        @Override
        public L2Adapter create(Object config, AdapterContext context) {
            throw new UnsupportedOperationException("not needed by these tests");
        }
    }

    public static final class TypeThrows extends Base {
        @Override
        public String type() {
            throw new AssertionError("type() is broken");
        }
    }

    public static final class TypeIsNull extends Base {
        @Override
        public String type() {
            return null;
        }
    }

    public static final class TypeIsEmpty extends Base {
        @Override
        public String type() {
            return "";
        }
    }

    /** Claims the built-in type's name. */
    public static final class SecondMemory extends Base {
        @Override
        public String type() {
            return "memory";
        }
    }

    public static final class ParseThrowsError extends Base {
        @Override
        public String type() {
            return "error_on_parse";
        }

        @Override
        public Object parseConfig(AdapterSettings settings) {
            throw new StackOverflowError();
        }
    }

    public static final class DescribeThrowsError extends Base {
        @Override
        public String type() {
            return "error_on_describe";
        }

        @Override
        public Map<String, Object> describe(Object config) {
            throw new AssertionError("a bug in describe()");
        }
    }

    public static final class CreateThrowsError extends Base {
        @Override
        public String type() {
            return "error_on_create";
        }

        @Override
        public L2Adapter create(Object config, AdapterContext context) {
            throw new AssertionError("a bug in create()");
        }
    }

    /** Fails at creation the way a client whose master is down does: not a bug, an instance that cannot start. */
    public static final class MasterDown extends Base {
        @Override
        public String type() {
            return "master_down";
        }

        @Override
        public L2Adapter create(Object config, AdapterContext context) {
            throw new IllegalStateException("master_down: cannot reach master_server_addr 127.0.0.1:1 (Connection refused)");
        }
    }
}
