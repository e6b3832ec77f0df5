package io.kvtier.mooncake.config;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What the build of the connector says about the Mooncake it links: the HA backends that Mooncake
 * was built with ({@value #HA_BACKENDS}, comma-separated, written by native/CMakeLists.txt into the
 * build facts), and where that was read, for messages. Mooncake's client refuses a backend it was
 * built without only when the instance is created, and only in its log ("Invalid HA backend
 * entry"); knowing it beforehand lets the parser refuse such a master_server_addr at the key.
 * A connector whose facts do not list them (an older build, one found on the library search path)
 * is taken to have none: a value it may not serve is then refused with the reason, rather than
 * failing at creation.
 */
public record ConnectorBuild(Set<String> haBackends, String source) {
    static final String HA_BACKENDS = "mooncake.ha_backends";

    public ConnectorBuild {
        haBackends = Set.copyOf(haBackends);
    }

    /** No facts: no HA backend. */
    public static ConnectorBuild unknown(String why) {
        return new ConnectorBuild(Set.of(), why);
    }

    /**
     * @param in the build facts, or null when there are none
     * @param where the file, for messages
     */
    public static ConnectorBuild read(InputStream in, String where) {
        if (in == null) {
            return unknown(where + " is missing");
        }
        Properties facts = new Properties();
        try (in) {
            facts.load(in);
        } catch (IOException e) {
            return unknown(where + " is unreadable: " + e);
        }
        String listed = facts.getProperty(HA_BACKENDS);
        if (listed == null) {
            return unknown(where + " does not list " + HA_BACKENDS + " (a connector built before kvtier recorded it)");
        }
        Set<String> backends = Arrays.stream(listed.split(","))
                .map(String::strip)
                .filter(name -> !name.isEmpty())
                .collect(Collectors.toSet());
        return new ConnectorBuild(backends, HA_BACKENDS + "=" + listed.strip() + " in " + where);
    }

    boolean has(MasterAddress.Backend backend) {
        return haBackends.contains(backend.scheme);
    }
}
