package io.kvtier.it;

import java.util.Optional;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Runs a real-Mooncake test class only where a real connector and a master can be had, and says
 * why not otherwise, on Maven's console, where a bare "Skipped" would say nothing. CI fails a run
 * in which the classes named {@code Real*Test} were skipped.
 */
final class RealMooncakeAvailable implements ExecutionCondition {
    static final String REAL_CONNECTOR = "native/linux-x86_64/libkvtier_mooncake.so";

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        Optional<String> reason = unavailableReason();
        if (reason.isEmpty()) {
            return ConditionEvaluationResult.enabled("a real Mooncake connector and master are available");
        }
        if (context.getTestMethod().isEmpty()) {
            System.out.println("[WARNING] " + context.getDisplayName() + " skipped: " + reason.get());
        }
        return ConditionEvaluationResult.disabled(reason.get());
    }

    static Optional<String> unavailableReason() {
        boolean connector = System.getenv("KVTIER_MOONCAKE_LIBRARY") != null
                || RealMooncakeAvailable.class.getClassLoader().getResource(REAL_CONNECTOR) != null;
        if (!connector) {
            return Optional.of("no real Mooncake connector in the plugin jar: build Mooncake with "
                    + "native/mooncake/build, export the lines it prints, then run mvn verify again "
                    + "(or set KVTIER_MOONCAKE_LIBRARY)");
        }
        return MooncakeMaster.unavailableReason();
    }
}
