/**
 * A Trade3-equivalent DayTrader written to the DayTrader specification (no DayTrader code): the
 * {@link org.irmi.bench.daytrader.TradeServices} backend over RMI-IIOP, its web tier, the httperf
 * harness ({@link org.irmi.bench.daytrader.Httperf}), the consistency audit
 * ({@link org.irmi.bench.daytrader.ConsistencyAudit}) and the launcher
 * ({@link org.irmi.bench.daytrader.DayTraderDeployment}, {@link org.irmi.bench.daytrader.DayTraderMain}).
 */
package org.irmi.bench.daytrader;
