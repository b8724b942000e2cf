package org.irmi.bench.daytrader.internal;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;
import org.irmi.bench.daytrader.HoldingDataBean;
import org.irmi.bench.daytrader.OrderDataBean;
import org.irmi.bench.daytrader.TradeException;
import org.irmi.bench.daytrader.TradeServices;

/**
 * DayTrader's orders: buying and selling, completing an order at once ({@link TradeServices#SYNCH})
 * or on the order worker, cancelling, and listing a user's orders. A buy or sell changes the
 * balance, the holding, the order and the quote in one transaction; a trade moves the quote's price.
 *
 * <p>THREAD-SAFE: called by the ORB's dispatch threads; asynchronous completions run on the order
 * worker.
 */
final class OrderDesk {

    private final TradeTransactions tx;
    private final KeyGenerator keys;
    private final LongSupplier wallMillis;
    private final Executor orderWorker;
    private final AtomicInteger pendingOrders = new AtomicInteger();

    /** @param orderWorker runs the asynchronous completions of orders */
    OrderDesk(TradeTransactions tx, KeyGenerator keys, LongSupplier wallMillis, Executor orderWorker) {
        this.tx = tx;
        this.keys = keys;
        this.wallMillis = wallMillis;
        this.orderWorker = orderWorker;
    }

    /** Orders queued for asynchronous completion and not yet settled. */
    int pendingOrders() {
        return pendingOrders.get();
    }

    /** @see TradeServices#buy */
    OrderDataBean buy(String userId, String symbol, double quantity, int mode) throws SQLException, TradeException {
        requirePositive(quantity);
        long orderId = keys.next("order");
        long holdingId = keys.next("holding");
        OrderDataBean order = tx.run(c -> {
            long accountId = TradeRows.accountId(c, userId, true);
            BigDecimal price = TradeRows.quote(c, symbol).getPrice();
            Timestamp now = now();
            TradeRows.insertOrder(c, orderId, "buy", "open", now, quantity, price, accountId, symbol, 0);
            if (mode == TradeServices.SYNCH) {
                settleBuy(c, orderId, accountId, symbol, quantity, price, holdingId, now);
            }
            return TradeRows.order(c, orderId);
        });
        if (mode != TradeServices.SYNCH) {
            enqueue(orderId, mode == TradeServices.ASYNCH_2PHASE);
        }
        return order;
    }

    /** @see TradeServices#sell */
    OrderDataBean sell(String userId, long holdingId, int mode) throws SQLException, TradeException {
        long orderId = keys.next("order");
        OrderDataBean order = tx.run(c -> {
            HoldingDataBean holding = TradeRows.lockHolding(c, holdingId);
            long accountId = TradeRows.accountId(c, userId, true);
            if (holding.getAccountId() != accountId) {
                throw new TradeException("holding " + holdingId + " does not belong to " + userId);
            }
            BigDecimal price = TradeRows.quote(c, holding.getSymbol()).getPrice();
            Timestamp now = now();
            TradeRows.insertOrder(c, orderId, "sell", "open", now, holding.getQuantity(), price, accountId,
                    holding.getSymbol(), holdingId);
            if (mode == TradeServices.SYNCH) {
                settleSell(c, orderId, accountId, holding, price, now);
            }
            return TradeRows.order(c, orderId);
        });
        if (mode != TradeServices.SYNCH) {
            enqueue(orderId, mode == TradeServices.ASYNCH_2PHASE);
        }
        return order;
    }

    /** @see TradeServices#queueOrder */
    void queueOrder(long orderId, boolean twoPhase) throws SQLException, TradeException {
        OrderDataBean order = tx.run(c -> TradeRows.order(c, orderId));
        if (!isOpen(order)) {
            throw new TradeException("order " + orderId + " is " + order.getOrderStatus() + ", only open orders can be queued");
        }
        enqueue(orderId, twoPhase);
    }

    /** Completes an open order: the trade takes place at the order's price. @see TradeServices#completeOrder */
    OrderDataBean complete(long orderId) throws SQLException, TradeException {
        long holdingId = keys.next("holding");
        return tx.run(c -> {
            OrderDataBean order = TradeRows.lockOrder(c, orderId);
            if (!isOpen(order)) {
                throw new TradeException("order " + orderId + " is " + order.getOrderStatus() + ", cannot complete it");
            }
            Timestamp now = now();
            if ("buy".equals(order.getOrderType())) {
                TradeRows.lockAccountById(c, order.getAccountId());
                settleBuy(c, orderId, order.getAccountId(), order.getSymbol(), order.getQuantity(), order.getPrice(),
                        holdingId, now);
            } else {
                HoldingDataBean holding = TradeRows.findHolding(c, order.getHoldingId(), true);
                if (holding == null) {
                    // Sold meanwhile by another order: nothing to sell, nothing changes hands.
                    TradeRows.setStatus(c, orderId, "cancelled", now);
                } else {
                    TradeRows.lockAccountById(c, order.getAccountId());
                    settleSell(c, orderId, order.getAccountId(), holding, order.getPrice(), now);
                }
            }
            return TradeRows.order(c, orderId);
        });
    }

    /** @see TradeServices#cancelOrder */
    void cancelOrder(long orderId) throws SQLException, TradeException {
        tx.run(c -> {
            OrderDataBean order = TradeRows.lockOrder(c, orderId);
            if (!isOpen(order)) {
                throw new TradeException("order " + orderId + " is " + order.getOrderStatus() + ", cannot cancel it");
            }
            TradeRows.setStatus(c, orderId, "cancelled", now());
            return null;
        });
    }

    /** @see TradeServices#orderCompleted */
    void orderCompleted(String userId, long orderId) throws SQLException, TradeException {
        tx.run(c -> {
            long accountId = TradeRows.accountId(c, userId, false);
            OrderDataBean order = TradeRows.lockOrder(c, orderId);
            if (order.getAccountId() != accountId) {
                throw new TradeException("order " + orderId + " does not belong to " + userId);
            }
            if ("closed".equals(order.getOrderStatus())) {
                try (PreparedStatement ps = c.prepareStatement("UPDATE orders SET orderStatus = 'completed' WHERE orderID = ?")) {
                    ps.setLong(1, orderId);
                    ps.executeUpdate();
                }
            }
            return null;
        });
    }

    /** @see TradeServices#getOrders */
    List<OrderDataBean> ordersOf(String userId) throws SQLException, TradeException {
        return tx.run(c -> TradeRows.orders(c, TradeRows.accountId(c, userId, false), null));
    }

    /** @see TradeServices#getClosedOrders */
    List<OrderDataBean> closedOrders(String userId) throws SQLException, TradeException {
        return tx.run(c -> {
            long accountId = TradeRows.accountId(c, userId, false);
            List<OrderDataBean> closed = TradeRows.orders(c, accountId, "closed");
            if (!closed.isEmpty()) {
                try (PreparedStatement ps = c.prepareStatement("UPDATE orders SET orderStatus = 'completed'"
                        + " WHERE account_accountID = ? AND orderStatus = 'closed'")) {
                    ps.setLong(1, accountId);
                    ps.executeUpdate();
                }
            }
            return closed;
        });
    }

    private void settleBuy(Connection c, long orderId, long accountId, String symbol, double quantity, BigDecimal price,
                           long holdingId, Timestamp now) throws SQLException, TradeException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO holding (holdingID, quantity, purchasePrice, purchaseDate,"
                + " account_accountID, quote_symbol) VALUES (?, ?, ?, ?, ?, ?)")) {
            ps.setLong(1, holdingId);
            ps.setDouble(2, quantity);
            ps.setBigDecimal(3, price);
            ps.setTimestamp(4, now);
            ps.setLong(5, accountId);
            ps.setString(6, symbol);
            ps.executeUpdate();
        }
        TradeRows.addToBalance(c, accountId, TradeMath.balanceDelta("buy", price, quantity, TradeMath.ORDER_FEE));
        tradeQuote(c, symbol, quantity);
        try (PreparedStatement ps = c.prepareStatement("UPDATE orders SET orderStatus = 'closed', completionDate = ?,"
                + " holding_holdingID = ? WHERE orderID = ?")) {
            ps.setTimestamp(1, now);
            ps.setLong(2, holdingId);
            ps.setLong(3, orderId);
            ps.executeUpdate();
        }
    }

    private void settleSell(Connection c, long orderId, long accountId, HoldingDataBean holding, BigDecimal price,
                            Timestamp now) throws SQLException, TradeException {
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM holding WHERE holdingID = ?")) {
            ps.setLong(1, holding.getHoldingId());
            ps.executeUpdate();
        }
        TradeRows.addToBalance(c, accountId, TradeMath.balanceDelta("sell", price, holding.getQuantity(), TradeMath.ORDER_FEE));
        tradeQuote(c, holding.getSymbol(), holding.getQuantity());
        TradeRows.setStatus(c, orderId, "closed", now);
    }

    /** A trade moves the price by a random factor of 0.9-1.1 (up from below 1, down from above 400) and adds the volume. */
    private void tradeQuote(Connection c, String symbol, double shares) throws SQLException, TradeException {
        BigDecimal price = TradeRows.lockQuote(c, symbol).getPrice();
        double factor = 0.9 + ThreadLocalRandom.current().nextInt(21) / 100.0;
        if (price.compareTo(BigDecimal.ONE) < 0) {
            factor = 1.25;
        } else if (price.compareTo(BigDecimal.valueOf(400)) > 0) {
            factor = 0.75;
        }
        BigDecimal newPrice = price.multiply(BigDecimal.valueOf(factor)).setScale(2, RoundingMode.HALF_EVEN)
                .max(new BigDecimal("0.01"));
        TradeRows.updateQuote(c, symbol, newPrice, shares);
    }

    private void enqueue(long orderId, boolean twoPhase) {
        pendingOrders.incrementAndGet();
        orderWorker.execute(() -> {
            try {
                complete(orderId);
            } catch (TradeException e) {
                // Cancelled or completed by a client first: nothing left to do.
            } catch (SQLException | RuntimeException e) {
                System.err.println("daytrader: asynchronous completion of order " + orderId + " failed: " + e);
            } finally {
                pendingOrders.decrementAndGet();
            }
        });
    }

    private Timestamp now() {
        return new Timestamp(wallMillis.getAsLong());
    }

    private static void requirePositive(double quantity) throws TradeException {
        if (!(quantity > 0) || Double.isInfinite(quantity)) {
            throw new TradeException("quantity must be > 0, was " + quantity);
        }
    }

    private static boolean isOpen(OrderDataBean order) {
        return "open".equals(order.getOrderStatus()) || "processing".equals(order.getOrderStatus());
    }
}
