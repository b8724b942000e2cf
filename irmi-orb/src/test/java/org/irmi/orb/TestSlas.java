package org.irmi.orb;

/** SLA texts the ORB tests start servers with. */
public final class TestSlas {

    /** Crosstalk only: 8 KiB base read budget, loopback clients weighted 3. */
    public static final String CROSSTALK = """
            service: assembly
            isolationPoints:
              crosstalk:
                baseReadBudget: 8KiB
                receiveBuffer: {min: 16KiB, max: 1MiB}
                defaultWeight: 1
                idleAfter: 500ms
                weights:
                  - client: 127.0.0.0/8
                    weight: 3
            """;

    private TestSlas() {
    }
}
