package io.kvtier.hostlib;

import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigIncludeContext;
import com.typesafe.config.ConfigIncluder;
import com.typesafe.config.ConfigIncluderClasspath;
import com.typesafe.config.ConfigIncluderFile;
import com.typesafe.config.ConfigIncluderURL;
import com.typesafe.config.ConfigObject;
import java.io.File;
import java.net.URL;

/**
 * Refuses HOCON's {@code include}, in each of its forms: an included file, URL or resource would be
 * read past every check a declaration file gets (its kind, size, encoding and nesting), and an
 * include that is not {@code required} and fails would be skipped without a word. {@code -c} is
 * repeatable and does the same job.
 */
final class NoIncludes implements ConfigIncluder, ConfigIncluderFile, ConfigIncluderURL, ConfigIncluderClasspath {
    static final NoIncludes INSTANCE = new NoIncludes();

    private NoIncludes() {}

    @Override
    public ConfigIncluder withFallback(ConfigIncluder fallback) {
        return this;
    }

    @Override
    public ConfigObject include(ConfigIncludeContext context, String what) {
        throw refused("\"" + what + "\"");
    }

    @Override
    public ConfigObject includeFile(ConfigIncludeContext context, File what) {
        throw refused("file(\"" + what + "\")");
    }

    @Override
    public ConfigObject includeURL(ConfigIncludeContext context, URL what) {
        throw refused("url(\"" + what + "\")");
    }

    @Override
    public ConfigObject includeResources(ConfigIncludeContext context, String what) {
        throw refused("classpath(\"" + what + "\")");
    }

    private static ConfigException refused(String what) {
        return new ConfigException.Generic("include " + what + " is not supported in declarations: pass each file with its own -c");
    }
}
