/** daytrader-bench/daytrader. */
package org.irmi.bench.daytrader;
