package io.kvtier.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
        assertThat(declarations.get(1).body()).containsOnlyKeys("type");
        assertThat(declarations).extracting(AdapterDeclaration::source)
                .containsExactly("--l2-adapter #1", "--l2-adapter #2");
    }

    @Test
    void invalidJsonIsReportedWithItsFlagNumber() {
        assertThatThrownBy(() -> fromFlags("{\"type\":\"echo\"}", "{not json"))
                .isInstanceOf(DeclarationException.class)
                .hasMessageStartingWith("Invalid JSON for --l2-adapter #2: ");
    }

    @Test
    void trailingJsonCannotSmuggleASecondMember() {
        assertThatThrownBy(() -> fromFlags("1, \"w\": 2")).hasMessageStartingWith("Invalid JSON for --l2-adapter #1");
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
    void aProviderErrorIsWrappedWithSourceAndType() {
        assertThatThrownBy(() -> Declarations.configure(registry, fromFlags("{\"type\":\"echo\",\"size\":\"lots\"}")))
                .hasMessage("--l2-adapter #1 ('echo'): size must be a byte size such as 67108864 or \"64 MiB\", got \"lots\"");
    }

    @Test
    void namesMustBeUnique() {
        assertThatThrownBy(() -> fromFlags("{\"name\":\"a\",\"type\":\"echo\"}", "{\"name\":\"a\",\"type\":\"echo\"}"))
                .hasMessage("--l2-adapter #2: duplicate adapter name 'a' (first declared at --l2-adapter #1)");
        assertThatThrownBy(() -> fromFlags("{\"name\":\"echo-1\",\"type\":\"echo\"}", "{\"type\":\"echo\"}"))
                .hasMessageContaining("duplicate adapter name 'echo-1'");
        assertThatThrownBy(() -> fromFlags("{\"name\":\"\",\"type\":\"echo\"}"))
                .hasMessage("--l2-adapter #1: 'name' must be a non-empty string, got \"\"");
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
    void hoconErrorsNameTheFileAndLine(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("bad.conf");
        Files.writeString(file, "kvtier.l2.adapters = [\n  { type = echo }\n  { type = echo, size = -5 }\n]\n");
        assertThatThrownBy(() -> Declarations.configure(registry, Declarations.resolve(Declarations.fromHoconFile(file))))
                .hasMessage(file + ":3 ('echo'): size must be a byte size such as 67108864 or \"64 MiB\", got -5");
        Files.writeString(file, "kvtier.l2.adapters = [\n  { type = echo \n");
        assertThatThrownBy(() -> Declarations.fromHoconFile(file)).isInstanceOf(DeclarationException.class)
                .hasMessageStartingWith(file + ": ").hasMessageContaining(": 3");
        Files.writeString(file, "kvtier.l2.adapters = [\n  42\n]\n");
        assertThatThrownBy(() -> Declarations.fromHoconFile(file)).hasMessage(file + ":2: expected an object, got number");
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
        assertThat(entries.get(0).body()).containsEntry("addr", "127.0.0.1:50051");
        assertThat(entries.get(0).source()).isEqualTo("inline.conf:3");
    }

    @Test
    void nullMembersReachTheProvider() {
        assertThat(fromFlags("{\"type\":\"echo\",\"extra\":null}").get(0).body()).containsEntry("extra", null);
    }

    @Test
    void jsonRenderingIsCompact() {
        assertThat(ConfigValues.toJson(Map.of("a", List.of(1, "x")))).isEqualTo("{\"a\":[1,\"x\"]}");
    }
}
