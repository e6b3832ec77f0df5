package io.kvtier.hostlib;

import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueFactory;
import com.typesafe.config.ConfigUtil;
import io.kvtier.spi.AdapterSettings;
import io.kvtier.spi.ConfigurationException;
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
    private final ConfigObject body;
    /** For a {@code --l2-adapter} flag: its name and text, where columns are counted. Otherwise null. */
    private final String flag;
    private final String flagText;

    DeclaredSettings(String type, ConfigObject body, String flag, String flagText) {
        this.type = type;
        this.body = body;
        this.flag = flag;
        this.flagText = flagText;
    }

    /** Settings built in code, e.g. by tests; their errors name {@code source}. */
    public static DeclaredSettings fromMap(String type, Map<String, ?> body, String source) {
        return new DeclaredSettings(type, ConfigValueFactory.fromMap(body, source), null, null);
    }

    @Override
    public Set<String> keys() {
        return body.keySet();
    }

    @Override
    public Object get(String key) {
        ConfigValue value = body.get(key);
        return value == null ? null : value.unwrapped();
    }

    @Override
    public long getBytes(String key) {
        try {
            return body.toConfig().getBytes(ConfigUtil.joinPath(key));
        } catch (ConfigException e) {
            throw error(List.of(key), Origins.problem(e));
        }
    }

    @Override
    public ConfigurationException error(List<String> keyPath, String problem) {
        return new ConfigurationException(locate(keyPath) + " ('" + type + "')", problem);
    }

    /** Where the deepest existing value along {@code keyPath} was written. */
    String locate(List<String> keyPath) {
        ConfigValue value = body;
        List<String> found = new ArrayList<>();
        for (String key : keyPath) {
            if (!(value instanceof ConfigObject object) || !object.containsKey(key)) {
                break;
            }
            value = object.get(key);
            found.add(key);
        }
        if (flag != null && value.origin().description().startsWith(flag)) {
            return Origins.inFlag(flag, flagText, found);
        }
        return Origins.where(value.origin());
    }
}
