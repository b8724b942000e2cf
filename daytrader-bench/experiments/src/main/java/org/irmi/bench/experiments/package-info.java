/** daytrader-bench/experiments. */
package org.irmi.bench.experiments;
