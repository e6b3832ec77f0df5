package io.kvtier.it;

import java.util.Optional;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Runs a cluster test class only where a real Mooncake can be had and the cluster harness can
 * make hosts (root, iproute2, nftables), and says why not otherwise, as {@link RealMooncakeAvailable}
 * does. CI runs as root and fails when a class named {@code Real*Test} was skipped.
 */
final class ClusterAvailable implements ExecutionCondition {
    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        Optional<String> reason = RealMooncakeAvailable.unavailableReason().or(Cluster::unavailableReason);
        if (reason.isEmpty()) {
            return ConditionEvaluationResult.enabled("a real Mooncake and the cluster harness are available");
        }
        if (context.getTestMethod().isEmpty()) {
            System.out.println("[WARNING] " + context.getDisplayName() + " skipped: " + reason.get());
        }
        return ConditionEvaluationResult.disabled(reason.get());
    }
}
