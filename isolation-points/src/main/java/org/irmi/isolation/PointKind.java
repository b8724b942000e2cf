package org.irmi.isolation;

/** The three kinds of isolation point I-RMI has; {@link #metricName()} is the bounded metric tag. */
public enum PointKind {
    /** Client side, before argument marshalling: a slow downstream node builds queues here. */
    SLOW_CLIENT("slow_client"),
    /** Server reader thread, after the request header: request types that poison the server. */
    POISON_MESSAGE("poison_message"),
    /** Server reader thread: parallel streams competing for the reader. */
    QOS_CROSSTALK("qos_crosstalk");

    private final String metricName;

    PointKind(String metricName) {
        this.metricName = metricName;
    }

    /** The name used in metric tags, logs and SLA files ({@code slow_client}, ...). */
    public String metricName() {
        return metricName;
    }
}
