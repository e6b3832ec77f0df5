package io.kvtier.mooncake.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kvtier.hostlib.ConfiguredAdapter;
import io.kvtier.hostlib.Declarations;
import io.kvtier.hostlib.L2AdapterRegistry;
import io.kvtier.mooncake.TestDouble;
import io.kvtier.spi.ConfigurationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A bad value in a HOCON declaration is reported at the line of its key, not of the entry's brace. */
class DeclarationErrorLinesTest {
    private static final String[] GOOD = {
            "kvtier.l2.adapters = [",
            "  {",
            "    type = mooncake_store",
            "    local_hostname = \"127.0.0.1\"",
            "    num_workers = 2",
            "    per_op_workers { lookup = 1, store = 2 }",
            "    replica_num = 1",
            "    eviction {",
            "      eviction_policy = LRU",
            "      eviction_ratio = 0.2",
            "    }",
            "    protocol = tcp",
            "    master_server_addr = \"10.0.0.1:50051\"",
            "  }",
            "]"};

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "5  | num_workers = many                | num_workers must be a positive integer, got \"many\"",
            "6  | per_op_workers { lookup = 0 }     | per_op_workers['lookup'] must be a positive integer, got 0",
            "7  | replica_num = -2                  | replica_num must be a non-negative integer, got -2",
            "10 | eviction_ratio = 7                | eviction.eviction_ratio must be a number in (0, 1], got 7.0",
            "12 | master_server_address = \"m:1\"   | unknown key 'master_server_address'",
    })
    void eachBadKeyIsReportedAtItsOwnLine(int line, String badLine, String problem) {
        String[] lines = GOOD.clone();
        lines[line - 1] = (line == 10 ? "      " : "    ") + badLine;
        String text = String.join("\n", lines);
        L2AdapterRegistry registry = L2AdapterRegistry.of(TestDouble.provider());
        assertThatThrownBy(() -> Declarations.configure(registry,
                Declarations.resolve(Declarations.fromHoconString(text, "mc.conf"))))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageStartingWith("mc.conf:" + line + " ('mooncake_store'): " + problem);
    }

    @Test
    void aMisspelledMooncakeKeyIsForwardedWithAWarningAtItsLine() {
        String[] lines = GOOD.clone();
        lines[3] = "    local_hostnme = \"127.0.0.1\"";
        L2AdapterRegistry registry = L2AdapterRegistry.of(TestDouble.provider());
        ConfiguredAdapter<?> configured = Declarations.configure(registry,
                Declarations.resolve(Declarations.fromHoconString(String.join("\n", lines), "mc.conf"))).get(0);
        assertThat(configured.warnings()).containsExactly("mc.conf:4 ('mooncake_store'): unknown key 'local_hostnme': "
                + "neither an option of mooncake_store nor a documented pass-through; did you mean 'local_hostname'? (see: kvtier adapters mooncake_store)");
        assertThat(((MooncakeStoreConfig) configured.config()).setupConfig()).containsEntry("local_hostnme", "127.0.0.1");
    }
}
