package io.kvtier.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The pom hands every jar these tests run to them: none is found by a path of the source tree. */
class ArtifactsTest {
    @Test
    void theBuildNamesEveryJar() {
        for (String property : new String[] {"kvtier.spi.jar", "kvtier.cli.jar", "kvtier.plugin-mooncake.jar",
                "kvtier.sample-plugin.jar"}) {
            assertThat(System.getProperty(property)).as(property).isNotBlank().doesNotStartWith("${");
        }
    }

    @Test
    void theJarsAreTheReactorsWhenItBuiltThem() {
        for (Path jar : new Path[] {Artifacts.SPI_JAR, Artifacts.CLI_JAR, Artifacts.PLUGIN_JAR, Artifacts.SAMPLE_PLUGIN_JAR}) {
            assertThat(jar).isRegularFile();
            assertThat(jar.getParent().getFileName()).hasToString("target");
        }
    }
}
