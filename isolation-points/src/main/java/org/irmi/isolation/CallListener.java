package org.irmi.isolation;

/**
 * Told how an admitted call ended, so that modules which limit calls in flight (the adaptive
 * concurrency limit) can release their permit and learn from the round trip. Exactly one method is
 * called once per admitted call, by the thread that completes it.
 */
public interface CallListener {
    /** A listener that ignores everything; used by a plain {@link Decision#proceed()}. */
    CallListener NONE = new CallListener() {
        @Override
        public void onSuccess(long rttNanos) {
        }

        @Override
        public void onDropped() {
        }

        @Override
        public void onIgnore() {
        }
    };

    /** The call completed (a reply or a user exception) after {@code rttNanos}. */
    void onSuccess(long rttNanos);

    /** The call failed because of overload (a timeout, TRANSIENT, NO_RESOURCES from downstream). */
    void onDropped();

    /** The call ended for a reason that says nothing about load (cancelled, a programming error). */
    void onIgnore();
}
