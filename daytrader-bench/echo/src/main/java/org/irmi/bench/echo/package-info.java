/** daytrader-bench/echo. */
package org.irmi.bench.echo;
