package org.irmi.orb.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

class TransportTakeoverTest {

    private static final String IIOP = TransportTakeover.JACORB_IIOP;
    private static final String SELECTOR = TransportTakeover.SELECTOR;
    private static final String WIOP = "org.jacorb.test.orb.etf.wiop.WIOPFactories";

    @Test
    void shouldPutTheSelectorInIiopsPlaceAndKeepTheOthersWhenTheServerListsSeveral() {
        assertThat(TransportTakeover.takeOver(List.of(IIOP, WIOP))).containsExactly(SELECTOR, WIOP);
        assertThat(TransportTakeover.takeOver(List.of(WIOP, IIOP))).containsExactly(WIOP, SELECTOR);
    }

    @Test
    void shouldListTheSelectorAloneWhenTheServerListsNothing() {
        assertThat(TransportTakeover.takeOver(List.of())).containsExactly(SELECTOR);
        assertThat(TransportTakeover.takeOver(List.of(" "))).containsExactly(SELECTOR);
    }

    @Test
    void shouldLeaveAListThatAlreadyHasTheSelector() {
        assertThat(TransportTakeover.takeOver(List.of(SELECTOR, WIOP))).containsExactly(SELECTOR, WIOP);
        assertThat(TransportTakeover.takeOver(List.of(SELECTOR, IIOP, WIOP))).containsExactly(SELECTOR, WIOP);
    }

    @Test
    void shouldLeaveAListWithoutIiopWhenThereIsNothingToTakeOver() {
        assertThat(TransportTakeover.takeOver(List.of(WIOP))).containsExactly(WIOP);
    }

    @Test
    void shouldNameJacorbsListWhenTheTakeoverChangedIt() {
        assertThat(TransportTakeover.describe(List.of(IIOP, WIOP), List.of(SELECTOR, WIOP)))
                .isEqualTo("[" + SELECTOR + ", " + WIOP + "] (JacORB's list: [" + IIOP + ", " + WIOP + "])");
        assertThat(TransportTakeover.describe(List.of(), List.of(SELECTOR)))
                .isEqualTo("[" + SELECTOR + "] (JacORB's list: not set, IIOP)");
    }

    @Test
    void shouldSayTheSelectorIsNotUsedWhenTheListHasNoIiop() {
        assertThat(TransportTakeover.describe(List.of(WIOP), List.of(WIOP)))
                .isEqualTo("[" + WIOP + "] (as listed: no IIOP to take over, so the selector transport is not used)");
    }

    @Test
    void shouldSayAsListedWhenTheListAlreadyHasTheSelector() {
        assertThat(TransportTakeover.describe(List.of(SELECTOR, WIOP), List.of(SELECTOR, WIOP)))
                .isEqualTo("[" + SELECTOR + ", " + WIOP + "] (as listed)");
    }

    @Test
    void shouldTrimNamesWhenTheListHasSpaces() {
        assertThat(TransportTakeover.takeOver(List.of(" " + IIOP + " ", " " + WIOP))).containsExactly(SELECTOR, WIOP);
    }
}
