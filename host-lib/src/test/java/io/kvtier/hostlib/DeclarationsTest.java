package io.kvtier.hostlib;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kvtier.spi.AdapterSettings;
import io.kvtier.spi.ConfigurationException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DeclarationsTest {
    private final L2AdapterRegistry registry = L2AdapterRegistry.of(new EchoProvider());

    private List<AdapterDeclaration> fromFlags(String... flags) {
        return Declarations.resolve(Declarations.fromJsonFlags(List.of(flags)));
    }

    @Test
    void jsonFlagsDefaultTheirNamesAndStripThem() {
        List<AdapterDeclaration> declarations = fromFlags("{\"type\":\"echo\",\"size\":\"64 MiB\"}",
                "{\"name\":\"b\",\"type\":\"echo\"}");
        assertThat(declarations).extracting(AdapterDeclaration::name).containsExactly("echo-0", "b");
        assertThat(declarations.get(1).settings().keys()).containsOnly("type");
        assertThat(declarations).extracting(AdapterDeclaration::source)
                .containsExactly("--l2-adapter #1", "--l2-adapter #2");
    }

    @Test
    void invalidJsonIsReportedWithItsFlagNumber() {
        assertThatThrownBy(() -> fromFlags("{\"type\":\"echo\"}", "{not json"))
                .isInstanceOf(DeclarationException.class)
                .hasMessageStartingWith("Invalid JSON for --l2-adapter #2, column 2: ");
    }

    @Test
    void trailingJsonCannotSmuggleASecondMember() {
        assertThatThrownBy(() -> fromFlags("{\"type\":\"echo\"}, \"w\": 2"))
                .hasMessageStartingWith("Invalid JSON for --l2-adapter #1");
    }

    @Test
    void jsonSyntaxErrorsNameTheColumnInTheUsersText() {
        assertThatThrownBy(() -> fromFlags("{\"type\":\"echo\", \"size\": }"))
                .hasMessageStartingWith("Invalid JSON for --l2-adapter #1, column 25: ");
        assertThatThrownBy(() -> fromFlags("{\n\"type\": \"echo\",\n\"size\": }"))
                .hasMessageStartingWith("Invalid JSON for --l2-adapter #1, line 3, column 9: ");
    }

    @Test
    void aJsonValueThatIsNotAnObjectIsNamedByItsType() {
        assertThatThrownBy(() -> fromFlags("[1,2]")).hasMessage("--l2-adapter #1: expected a JSON object, got array");
        assertThatThrownBy(() -> fromFlags("\"memory\"")).hasMessage("--l2-adapter #1: expected a JSON object, got string");
        assertThatThrownBy(() -> fromFlags("42")).hasMessage("--l2-adapter #1: expected a JSON object, got number");
    }

    @Test
    void aMissingTypeIsReported() {
        assertThatThrownBy(() -> fromFlags("{\"name\":\"x\"}")).hasMessage("--l2-adapter #1: missing 'type' field");
    }

    @Test
    void anUnknownTypeListsTheKnownTypes() {
        assertThatThrownBy(() -> Declarations.configure(registry, fromFlags("{\"type\":\"echo\"}", "{\"type\":\"fs\"}")))
                .hasMessage("--l2-adapter #2: unknown adapter type 'fs'. Known: echo");
    }

    @Test
    void aBadValueInAFlagIsReportedAtItsColumnWithTypesafesMessage() {
        assertThatThrownBy(() -> Declarations.configure(registry, fromFlags("{\"type\":\"echo\", \"size\":\"lots\"}")))
                .isInstanceOf(ConfigurationException.class)
                .hasMessage("--l2-adapter #1, column 17 ('echo'): Invalid value at 'size': "
                        + "No number in size-in-bytes value 'lots'");
    }

    @Test
    void aStrayExceptionInAProviderIsNotTheUsersConfigurationError() {
        assertThatThrownBy(() -> Declarations.configure(registry, fromFlags("{\"type\":\"echo\",\"fail\":true}")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("--l2-adapter #1 ('echo'): the provider failed parsing the declaration: "
                        + "java.lang.NumberFormatException: For input string: \"x\"");
    }

    @Test
    void namesMustBeUnique() {
        assertThatThrownBy(() -> fromFlags("{\"name\":\"a\",\"type\":\"echo\"}", "{\"name\":\"a\",\"type\":\"echo\"}"))
                .hasMessage("--l2-adapter #2: duplicate adapter name 'a' (first declared at --l2-adapter #1)");
        assertThatThrownBy(() -> fromFlags("{\"name\":\"echo-1\",\"type\":\"echo\"}", "{\"type\":\"echo\"}"))
                .hasMessageContaining("duplicate adapter name 'echo-1'");
        assertThatThrownBy(() -> fromFlags("{\"name\":\"\",\"type\":\"echo\"}"))
                .hasMessage("--l2-adapter #1, column 2: 'name' must be a non-empty string without control characters, got \"\"");
    }

    @Test
    void aNameIsAtMost64Characters() {
        String longest = "n".repeat(Declarations.MAX_NAME_LENGTH);
        assertThat(fromFlags("{\"name\":\"" + longest + "\",\"type\":\"echo\"}")).extracting(AdapterDeclaration::name)
                .containsExactly(longest);
        assertThatThrownBy(() -> fromFlags("{\"name\":\"" + longest + "n\",\"type\":\"echo\"}"))
                .hasMessage("--l2-adapter #1, column 2: 'name' must be at most 64 characters, got 65: \"" + longest + "n\"");
    }

    @Test
    void hoconEntriesComeInOrderWithTheirLines(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("two.conf");
        Files.writeString(file, String.join("\n",
                "kvtier.l2.adapters = [",
                "  { name = first, type = echo, size = 1 MiB }",
                "  {",
                "    type = echo",
                "  }",
                "]"));
        List<AdapterDeclaration> declarations = Declarations.resolve(Declarations.fromHoconFile(file));
        assertThat(declarations).extracting(AdapterDeclaration::name).containsExactly("first", "echo-1");
        assertThat(declarations).extracting(AdapterDeclaration::source).containsExactly(file + ":2", file + ":3");
        List<ConfiguredAdapter<?>> configured = Declarations.configure(registry, declarations);
        assertThat(configured.get(0).describe()).isEqualTo(Map.of("size", 1048576L));
    }

    @Test
    void flagsAreAppendedAfterFileEntries(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("one.conf");
        Files.writeString(file, "kvtier.l2.adapters = [ { type = echo } ]");
        List<Declarations.Entry> entries = new ArrayList<>(Declarations.fromHoconFile(file));
        entries.addAll(Declarations.fromJsonFlags(List.of("{\"type\":\"echo\"}")));
        assertThat(Declarations.resolve(entries)).extracting(AdapterDeclaration::name).containsExactly("echo-0", "echo-1");
    }

    @Test
    void hoconErrorsNameTheFileAndLineOfTheKey(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("bad.conf");
        Files.writeString(file, String.join("\n",
                "kvtier.l2.adapters = [",
                "  { type = echo }",
                "  {",
                "    type = echo",
                "    size = lots",
                "  }",
                "]"));
        assertThatThrownBy(() -> Declarations.configure(registry, Declarations.resolve(Declarations.fromHoconFile(file))))
                .hasMessage(file + ":5 ('echo'): Invalid value at 'size': No number in size-in-bytes value 'lots'");
        Files.writeString(file, "kvtier.l2.adapters = [\n  { type = echo \n");
        assertThatThrownBy(() -> Declarations.fromHoconFile(file)).isInstanceOf(DeclarationException.class)
                .hasMessage(file + ":2: '{' is never closed");
        Files.writeString(file, "kvtier.l2.adapters = [\n  42\n]\n");
        assertThatThrownBy(() -> Declarations.fromHoconFile(file)).hasMessage(file + ":2: expected an object, got number");
        Files.writeString(file, "# nothing yet\nkvtier.l2.adapters = []\n");
        assertThatThrownBy(() -> Declarations.fromHoconFile(file)).isInstanceOf(DeclarationException.class)
                .hasMessage(file + ":2: 'kvtier.l2.adapters' is empty: declare at least one adapter");
        Files.writeString(file, "kvtier { }\n");
        assertThatThrownBy(() -> Declarations.fromHoconFile(file)).hasMessage(file + ": missing list 'kvtier.l2.adapters'");
        assertThatThrownBy(() -> Declarations.fromHoconFile(dir.resolve("nope.conf"))).hasMessageEndingWith("nope.conf: no such file");
    }

    @Test
    void hoconSubstitutesFromTheEnvironmentWithAFallback() {
        List<Declarations.Entry> entries = Declarations.fromHoconString(String.join("\n",
                "master = \"127.0.0.1:50051\"",
                "master = ${?KVTIER_TEST_VARIABLE_THAT_IS_NOT_SET}",
                "kvtier.l2.adapters = [ { type = echo, addr = ${master} } ]"), "inline.conf");
        assertThat(entries.get(0).body().unwrapped()).containsEntry("addr", "127.0.0.1:50051");
        assertThat(entries.get(0).source()).isEqualTo("inline.conf:3");
    }

    @Test
    void nullMembersReachTheProvider() {
        AdapterSettings settings = fromFlags("{\"type\":\"echo\",\"extra\":null}").get(0).settings();
        assertThat(settings.keys()).contains("extra");
        assertThat(settings.get("extra")).isNull();
    }

    @Test
    void aTypeThatIsNotAStringIsReportedAtItsOwnLine() {
        assertThatThrownBy(() -> Declarations.resolve(Declarations.fromHoconString(
                "kvtier.l2.adapters = [ {\n  type = 42\n} ]", "x.conf")))
                .hasMessage("x.conf:2: 'type' must be a non-empty string, got 42");
    }

    @Test
    void defaultsComeFromTheTypesReferenceConfAndKeepItsOrigin() {
        List<ConfiguredAdapter<?>> configured = Declarations.configure(registry, fromFlags("{\"type\":\"echo\"}"));
        assertThat(configured.get(0).describe()).isEqualTo(Map.of("size", 1L));
        assertThat(configured.get(0).warnings()).isEmpty();
    }

    @Test
    void anUnknownKeyIsAWarningAtItsLineAndAPassThroughIsNot() {
        List<ConfiguredAdapter<?>> configured = Declarations.configure(registry, Declarations.resolve(
                Declarations.fromHoconString("kvtier.l2.adapters = [ {\n  type = echo\n  forwarded = x\n  sise = 5\n} ]",
                        "typo.conf")));
        assertThat(configured.get(0).warnings()).containsExactly("typo.conf:4 ('echo'): unknown key 'sise': "
                + "neither an option of echo nor a documented pass-through; did you mean 'size'? (see: kvtier adapters echo)");
    }

    @Test
    void anUnknownKeyFarFromEveryDocumentedKeyGetsNoSuggestion() {
        List<ConfiguredAdapter<?>> configured = Declarations.configure(registry, fromFlags("{\"type\":\"echo\",\"zzz\":1}"));
        assertThat(configured.get(0).warnings()).containsExactly("--l2-adapter #1, column 16 ('echo'): unknown key 'zzz': "
                + "neither an option of echo nor a documented pass-through (see: kvtier adapters echo)");
    }

    @Test
    void hostSizesAreExactOrRefused() {
        assertThat(ConfigValues.bytes("64 MiB", "--l1-size")).isEqualTo(64L << 20);
        assertThat(ConfigValues.bytes("1.5 KiB", "--l1-size")).isEqualTo(1536);
        assertThat(ConfigValues.bytes("1e3", "--l1-size")).isEqualTo(1000);
        assertThatThrownBy(() -> ConfigValues.bytes("lots", "--l1-size")).isInstanceOf(ConfigurationException.class)
                .hasMessage("--l1-size: No number in size-in-bytes value 'lots'");
        assertThatThrownBy(() -> ConfigValues.bytes("1.5", "--l1-size"))
                .hasMessage("--l1-size: '1.5' is not a whole number of bytes");
        assertThatThrownBy(() -> ConfigValues.bytes("10 EiB", "--l1-size"))
                .hasMessage("--l1-size: '10 EiB' is out of range: the largest size is 9223372036854775807 bytes (8 EiB - 1)");
        assertThatThrownBy(() -> ConfigValues.bytes("5 lots", "--l1-size")).hasMessageStartingWith(
                "--l1-size: Could not parse size-in-bytes unit 'lots'");
    }
}
