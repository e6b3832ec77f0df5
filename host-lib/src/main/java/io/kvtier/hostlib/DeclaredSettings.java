package io.kvtier.hostlib;

import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueFactory;
import io.kvtier.spi.AdapterSettings;
import io.kvtier.spi.ConfigurationException;
import io.kvtier.spi.L2AdapterProvider;
import io.kvtier.toolkit.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@link AdapterSettings} over a Typesafe object, which remembers each value's origin. Values are
 * read with Typesafe's own getters, so their messages reach the user unchanged, at the key's origin.
 */
public final class DeclaredSettings implements AdapterSettings {
    private final String type;
    /** What the declaration itself sets. */
    private final ConfigObject declared;
    /** The declaration over the type's defaults: what the getters read. */
    private final ConfigObject body;
    /** For a {@code --l2-adapter} flag: its name and text, where columns are counted. Otherwise null. */
    private final String flag;
    private final String flagText;

    DeclaredSettings(String type, ConfigObject declared, String flag, String flagText) {
        this(type, declared, declared, flag, flagText);
    }

    private DeclaredSettings(String type, ConfigObject declared, ConfigObject body, String flag, String flagText) {
        this.type = type;
        this.declared = declared;
        this.body = body;
        this.flag = flag;
        this.flagText = flagText;
    }

    /**
     * Settings built in code (by tests, or a host without files) over the defaults of
     * {@code provider}'s reference.conf; their errors name {@code source}.
     */
    public static DeclaredSettings fromMap(L2AdapterProvider<?> provider, Map<String, ?> body, String source) {
        DeclaredSettings settings = new DeclaredSettings(provider.type(), ConfigValueFactory.fromMap(body, source), null, null);
        return AdapterReference.of(provider).map(settings::withDefaults).orElse(settings);
    }

    /** These settings over the defaults of the type's reference.conf. */
    DeclaredSettings withDefaults(AdapterReference reference) {
        return new DeclaredSettings(type, declared, declared.withFallback(reference.options()), flag, flagText);
    }

    /** The keys the declaration itself sets. */
    Set<String> declaredKeys() {
        return declared.keySet();
    }

    @Override
    public Set<String> keys() {
        return body.keySet();
    }

    @Override
    public boolean isDeclared(String key) {
        return declared.containsKey(key);
    }

    @Override
    public Object get(String key) {
        ConfigValue value = body.get(key);
        return value == null ? null : value.unwrapped();
    }

    @Override
    public long getBytes(String key) {
        ConfigValue value = body.get(key);
        Object unwrapped = value == null ? null : value.unwrapped();
        String written;
        if (unwrapped instanceof String s) {
            written = s;
        } else if (unwrapped instanceof Double d && d.isInfinite()) {
            throw error(List.of(key), "Invalid value at '" + key + "': the number is out of range: " + ByteSizes.LARGEST_SIZE);
        } else if (unwrapped instanceof Number) {
            // The number's own text: 1.5 or 1E3 as written, not as a double would print them.
            written = value.render();
        } else {
            throw error(List.of(key), "Invalid value at '" + key + "': expected a byte size such as 67108864 or"
                    + " \"64 MiB\", got " + Json.typeName(unwrapped));
        }
        try {
            return ByteSizes.parse(written);
        } catch (IllegalArgumentException e) {
            throw error(List.of(key), "Invalid value at '" + key + "': " + e.getMessage());
        }
    }

    @Override
    public ConfigurationException error(List<String> keyPath, String problem) {
        return new ConfigurationException(locate(keyPath) + " ('" + type + "')", problem);
    }

    /**
     * Where the value at {@code keyPath} was written: in the declaration, else in the type's
     * reference.conf when it is a default, else where the closest enclosing declared value was.
     */
    String locate(List<String> keyPath) {
        List<String> found = new ArrayList<>();
        ConfigValue value = deepest(declared, keyPath, found);
        if (found.size() < keyPath.size()) {
            List<String> foundWithDefaults = new ArrayList<>();
            ConfigValue byDefault = deepest(body, keyPath, foundWithDefaults);
            if (foundWithDefaults.size() == keyPath.size()) {
                return Origins.where(byDefault.origin());
            }
        }
        if (flag != null && value.origin().description().startsWith(flag)) {
            return Origins.inFlag(flag, flagText, found);
        }
        return Origins.where(value.origin());
    }

    /** The deepest value along {@code keyPath} under {@code root}; {@code found} receives the keys walked. */
    private static ConfigValue deepest(ConfigObject root, List<String> keyPath, List<String> found) {
        ConfigValue value = root;
        for (String key : keyPath) {
            if (!(value instanceof ConfigObject object) || !object.containsKey(key)) {
                break;
            }
            value = object.get(key);
            found.add(key);
        }
        return value;
    }
}
