package io.kvtier.hostlib;

import com.typesafe.config.ConfigObject;

/**
 * One declared instance, before its type parses it.
 *
 * @param name     the instance name (declared, or {@code <type>-<index>})
 * @param type     the adapter type name
 * @param settings the declaration without {@code name}, with the origin of every value
 * @param source   where the declaration starts: {@code file:line} or {@code --l2-adapter #i}
 */
public record AdapterDeclaration(String name, String type, DeclaredSettings settings, String source) {
    static AdapterDeclaration of(String name, String type, Declarations.Entry entry) {
        ConfigObject body = entry.body().withoutKey("name");
        return new AdapterDeclaration(name, type, new DeclaredSettings(type, body, entry.flag(), entry.flagText()),
                entry.source());
    }
}
