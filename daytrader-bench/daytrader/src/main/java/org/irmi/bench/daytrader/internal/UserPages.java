package org.irmi.bench.daytrader.internal;

import java.math.BigDecimal;
import java.rmi.RemoteException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.irmi.bench.daytrader.AccountDataBean;
import org.irmi.bench.daytrader.AccountProfileDataBean;
import org.irmi.bench.daytrader.HoldingDataBean;
import org.irmi.bench.daytrader.OrderDataBean;
import org.irmi.bench.daytrader.QuoteDataBean;
import org.irmi.bench.daytrader.TradeException;
import org.irmi.bench.daytrader.TradeServices;

/**
 * The pages a DayTrader user sees ({@link WebTier} checks who may use them): log in, register,
 * home, quotes, portfolio, account and profile, buy and sell. Each calls the backend and renders
 * HTML; a {@link TradeException} is a business outcome and renders with status 200, within the
 * page's own bounds (an opening balance of 0 to {@link #MAX_OPENING_BALANCE} with at most 2
 * decimals, profile fields of at most {@link #MAX_FIELD_CHARS} characters).
 *
 * <p>THREAD-SAFE: no state of its own beyond the backend's stub.
 */
final class UserPages {
    private static final int MAX_ORDERS_SHOWN = 50;
    /** The most symbols one quote page looks up (each is a backend call). */
    static final int MAX_QUOTES_SHOWN = 100;
    /** The largest quantity one buy takes. */
    static final double MAX_QUANTITY = 1_000_000;
    /** The largest opening balance {@code register} takes. */
    static final BigDecimal MAX_OPENING_BALANCE = new BigDecimal("1000000000");
    /** The longest user id, password, name, address, e-mail or card number (the database's columns hold 250). */
    static final int MAX_FIELD_CHARS = 250;

    private final TradeServices trade;

    UserPages(TradeServices trade) {
        this.trade = trade;
    }

    WebReply loginPage(WebExchange ex, String message) {
        Html h = ex.html("Log in");
        if (message != null) {
            h.error(message);
        }
        return WebReply.html(h.loginForm().finish());
    }

    WebReply home(WebExchange ex, String message) throws RemoteException {
        String user = ex.user();
        if (user == null) {
            return loginPage(ex, message);
        }
        try {
            Html h = ex.html("Home");
            if (message != null) {
                h.p(message);
            }
            AccountDataBean a = trade.getAccountData(user);
            List<HoldingDataBean> holdings = trade.getHoldings(user);
            h.account(a).p(holdings.size() + " holdings.");
            List<OrderDataBean> closed = trade.getClosedOrders(user);
            if (!closed.isEmpty()) {
                h.p("Completed since your last visit: " + closed.size() + " orders.");
            }
            return WebReply.html(h.marketSummary(trade.getMarketSummary()).finish());
        } catch (TradeException e) {
            return business(ex, "Home", e);
        }
    }

    /**
     * Signs {@code uid} in on a new session. The session's CSRF token is the request's {@code csrf}
     * field when it carries a well-formed one (a scripted client's own; by the rules, the current
     * session's when there is one), else a new random one.
     */
    WebReply login(WebExchange ex, String uid, String passwd) throws RemoteException {
        if (uid == null) {
            return loginPage(ex, null);
        }
        String proposed = ex.param(WebTier.CSRF_FIELD);
        if (proposed != null && !WebSessions.isWellFormedToken(proposed)) {
            return WebReply.error(400, "csrf must be 32 lower-case hex digits (128 random bits) when a login brings it");
        }
        try {
            trade.login(uid, passwd == null ? "" : passwd);
            ex.signIn(uid, proposed);
            return home(ex, "Welcome, " + uid + ".");
        } catch (TradeException e) {
            return loginPage(ex, "Login failed: " + e.getMessage());
        }
    }

    WebReply logout(WebExchange ex) throws RemoteException {
        String user = ex.user();
        ex.signOut();
        if (user != null) {
            try {
                trade.logout(user);
            } catch (TradeException e) {
                return loginPage(ex, "Logout: " + e.getMessage());
            }
        }
        return loginPage(ex, "Logged off.");
    }

    WebReply register(WebExchange ex, Function<String, String> p) throws RemoteException {
        String uid = p.apply("uid");
        if (uid == null) {
            return WebReply.html(ex.html("Register").registerForm().finish());
        }
        String tooLong = tooLong(p, "uid", "passwd", "fullname", "address", "email", "creditcard");
        if (tooLong != null) {
            return WebReply.html(ex.html("Register").error(tooLong).registerForm().finish());
        }
        try {
            String m = p.apply("money");
            BigDecimal money = new BigDecimal(m == null ? "10000" : m.trim());
            if (money.signum() < 0 || money.compareTo(MAX_OPENING_BALANCE) > 0 || money.scale() > 2) {
                return WebReply.html(ex.html("Register").error("opening balance must be 0 to 1,000,000,000 with at most"
                        + " 2 decimals").registerForm().finish());
            }
            String passwd = p.apply("passwd") == null ? "xxx" : p.apply("passwd");
            trade.register(uid, passwd, p.apply("fullname"), p.apply("address"), p.apply("email"), p.apply("creditcard"), money);
            return login(ex, uid, passwd);
        } catch (NumberFormatException e) {
            return WebReply.html(ex.html("Register").error("opening balance must be a number").registerForm().finish());
        } catch (TradeException e) {
            return WebReply.html(ex.html("Register").error(e.getMessage()).registerForm().finish());
        }
    }

    /** The first of {@code fields} longer than {@link #MAX_FIELD_CHARS}, as a message; null when none is. */
    private static String tooLong(Function<String, String> p, String... fields) {
        for (String f : fields) {
            String v = p.apply(f);
            if (v != null && v.length() > MAX_FIELD_CHARS) {
                return f + " may be at most " + MAX_FIELD_CHARS + " characters, was " + v.length();
            }
        }
        return null;
    }

    WebReply quote(WebExchange ex, String symbols) throws RemoteException {
        List<QuoteDataBean> found = new ArrayList<>();
        Html h = ex.html("Quotes");
        String[] list = (symbols == null || symbols.isBlank() ? "s:0,s:1,s:2,s:3,s:4" : symbols).split("[,\\s]+");
        if (list.length > MAX_QUOTES_SHOWN) {
            h.error("at most " + MAX_QUOTES_SHOWN + " symbols at once; showing the first " + MAX_QUOTES_SHOWN);
        }
        for (int i = 0; i < list.length && i < MAX_QUOTES_SHOWN; i++) {
            if (list[i].isEmpty()) {
                continue;
            }
            try {
                found.add(trade.getQuote(list[i]));
            } catch (TradeException e) {
                h.error(e.getMessage());
            }
        }
        return WebReply.html(h.quotes(found).finish());
    }

    WebReply portfolio(WebExchange ex, String message) throws RemoteException {
        String user = ex.user();
        if (user == null) {
            return loginPage(ex, "Log in to see your portfolio.");
        }
        try {
            Html h = ex.html("Portfolio");
            if (message != null) {
                h.p(message);
            }
            List<HoldingDataBean> holdings = trade.getHoldings(user);
            Map<String, QuoteDataBean> quotesBySymbol = new HashMap<>();
            for (HoldingDataBean holding : holdings) {
                if (!quotesBySymbol.containsKey(holding.getSymbol())) {
                    quotesBySymbol.put(holding.getSymbol(), trade.getQuote(holding.getSymbol()));
                }
            }
            return WebReply.html(h.holdings(holdings, quotesBySymbol).finish());
        } catch (TradeException e) {
            return business(ex, "Portfolio", e);
        }
    }

    WebReply account(WebExchange ex, String message) throws RemoteException {
        String user = ex.user();
        if (user == null) {
            return loginPage(ex, "Log in to see your account.");
        }
        try {
            Html h = ex.html("Account");
            if (message != null) {
                h.p(message);
            }
            return WebReply.html(h.account(trade.getAccountData(user)).profileForm(trade.getAccountProfileData(user))
                    .orders(trade.getOrders(user), MAX_ORDERS_SHOWN).finish());
        } catch (TradeException e) {
            return business(ex, "Account", e);
        }
    }

    WebReply update(WebExchange ex, Function<String, String> p) throws RemoteException {
        String user = ex.user();
        if (user == null) {
            return loginPage(ex, "Log in to update your profile.");
        }
        String tooLong = tooLong(p, "passwd", "fullname", "address", "email", "creditcard");
        if (tooLong != null) {
            return account(ex, tooLong);
        }
        try {
            AccountProfileDataBean old = trade.getAccountProfileData(user);
            trade.updateAccountProfile(new AccountProfileDataBean(user, or(p.apply("passwd"), old.getPassword()),
                    or(p.apply("fullname"), old.getFullName()), or(p.apply("address"), old.getAddress()),
                    or(p.apply("email"), old.getEmail()), or(p.apply("creditcard"), old.getCreditCard())));
            return account(ex, "Profile updated.");
        } catch (TradeException e) {
            return business(ex, "Update profile", e);
        }
    }

    WebReply buy(WebExchange ex, String symbol, String quantity) throws RemoteException {
        String user = ex.user();
        if (user == null) {
            return loginPage(ex, "Log in to buy.");
        }
        double q;
        try {
            q = Double.parseDouble(quantity == null ? "" : quantity.trim());
        } catch (NumberFormatException e) {
            return WebReply.html(ex.html("Buy").error("quantity must be a number, was '" + quantity + "'").finish());
        }
        if (!(q > 0 && q <= MAX_QUANTITY)) {
            return WebReply.html(ex.html("Buy").error("quantity must be more than 0 and at most " + (long) MAX_QUANTITY
                    + ", was " + quantity).finish());
        }
        try {
            OrderDataBean order = trade.buy(user, symbol == null ? "" : symbol, q, TradeServices.SYNCH);
            return WebReply.html(ex.html("Buy").order(order).finish());
        } catch (TradeException e) {
            return business(ex, "Buy", e);
        }
    }

    WebReply sell(WebExchange ex, String holdingId) throws RemoteException {
        String user = ex.user();
        if (user == null) {
            return loginPage(ex, "Log in to sell.");
        }
        long id;
        try {
            id = Long.parseLong(holdingId == null ? "" : holdingId.trim());
        } catch (NumberFormatException e) {
            return WebReply.html(ex.html("Sell").error("holdingID must be a number, was '" + holdingId + "'").finish());
        }
        try {
            OrderDataBean order = trade.sell(user, id, TradeServices.SYNCH);
            return WebReply.html(ex.html("Sell").order(order).finish());
        } catch (TradeException e) {
            return business(ex, "Sell", e);
        }
    }

    /**
     * The portfolio's sell button for a symbol, as a scripted session can press it without knowing
     * holding IDs: sells the user's oldest holding of {@code symbol}.
     */
    WebReply sellSymbol(WebExchange ex, String symbol) throws RemoteException {
        String user = ex.user();
        if (user == null) {
            return loginPage(ex, "Log in to sell.");
        }
        try {
            for (HoldingDataBean h : trade.getHoldings(user)) {
                if (h.getSymbol().equals(symbol)) {
                    return sell(ex, Long.toString(h.getHoldingId()));
                }
            }
            return WebReply.html(ex.html("Sell").error("you hold no " + symbol).finish());
        } catch (TradeException e) {
            return business(ex, "Sell", e);
        }
    }

    static WebReply business(WebExchange ex, String title, TradeException e) {
        return WebReply.html(ex.html(title).error(e.getMessage()).finish());
    }

    private static String or(String value, String fallback) {
        return value == null || value.isBlank() ? fallback : value;
    }
}
