package org.irmi.bench.daytrader.internal;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.function.LongSupplier;
import org.irmi.bench.daytrader.AccountDataBean;
import org.irmi.bench.daytrader.AccountProfileDataBean;
import org.irmi.bench.daytrader.TradeException;
import org.irmi.bench.daytrader.TradeServices;

/**
 * DayTrader's accounts: registering, logging in and out, reading an account and reading or
 * changing its profile, each in one transaction.
 *
 * <p>THREAD-SAFE: called by the ORB's dispatch threads.
 */
final class AccountDesk {

    private final TradeTransactions tx;
    private final KeyGenerator keys;
    private final LongSupplier wallMillis;

    AccountDesk(TradeTransactions tx, KeyGenerator keys, LongSupplier wallMillis) {
        this.tx = tx;
        this.keys = keys;
        this.wallMillis = wallMillis;
    }

    /** @see TradeServices#getAccountData */
    AccountDataBean accountData(String userId) throws SQLException, TradeException {
        return tx.run(c -> TradeRows.account(c, userId));
    }

    /** @see TradeServices#getAccountProfileData */
    AccountProfileDataBean profileData(String userId) throws SQLException, TradeException {
        return tx.run(c -> TradeRows.profile(c, userId));
    }

    /** @see TradeServices#updateAccountProfile */
    AccountProfileDataBean updateProfile(AccountProfileDataBean p) throws SQLException, TradeException {
        return tx.run(c -> {
            try (PreparedStatement ps = c.prepareStatement("UPDATE accountprofile SET passwd = ?, fullName = ?, address = ?,"
                    + " email = ?, creditCard = ? WHERE userID = ?")) {
                ps.setString(1, p.getPassword());
                ps.setString(2, p.getFullName());
                ps.setString(3, p.getAddress());
                ps.setString(4, p.getEmail());
                ps.setString(5, p.getCreditCard());
                ps.setString(6, p.getUserId());
                if (ps.executeUpdate() == 0) {
                    throw new TradeException("no user " + p.getUserId());
                }
            }
            return TradeRows.profile(c, p.getUserId());
        });
    }

    /** @see TradeServices#login */
    AccountDataBean login(String userId, String password) throws SQLException, TradeException {
        return tx.run(c -> {
            AccountProfileDataBean profile = TradeRows.profile(c, userId);
            if (!profile.getPassword().equals(password)) {
                throw new TradeException("wrong password for " + userId);
            }
            try (PreparedStatement ps = c.prepareStatement("UPDATE account SET loginCount = loginCount + 1, lastLogin = ?"
                    + " WHERE profile_userID = ?")) {
                ps.setTimestamp(1, now());
                ps.setString(2, userId);
                ps.executeUpdate();
            }
            return TradeRows.account(c, userId);
        });
    }

    /** @see TradeServices#logout */
    void logout(String userId) throws SQLException, TradeException {
        tx.run(c -> {
            try (PreparedStatement ps = c.prepareStatement("UPDATE account SET logoutCount = logoutCount + 1 WHERE profile_userID = ?")) {
                ps.setString(1, userId);
                if (ps.executeUpdate() == 0) {
                    throw new TradeException("no user " + userId);
                }
            }
            return null;
        });
    }

    /** @see TradeServices#register */
    AccountDataBean register(String userId, String password, String fullName, String address, String email,
                             String creditCard, BigDecimal openBalance) throws SQLException, TradeException {
        if (userId == null || userId.isBlank()) {
            throw new TradeException("a user id is required");
        }
        if (openBalance == null || openBalance.signum() < 0) {
            throw new TradeException("opening balance must be >= 0, was " + openBalance);
        }
        long accountId = keys.next("account");
        return tx.run(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM accountprofile WHERE userID = ?")) {
                ps.setString(1, userId);
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next()) {
                        throw new TradeException("user " + userId + " already exists");
                    }
                }
            }
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO accountprofile (userID, passwd, fullName, address,"
                    + " email, creditCard) VALUES (?, ?, ?, ?, ?, ?)")) {
                ps.setString(1, userId);
                ps.setString(2, password);
                ps.setString(3, fullName);
                ps.setString(4, address);
                ps.setString(5, email);
                ps.setString(6, creditCard);
                ps.executeUpdate();
            }
            BigDecimal open = openBalance.setScale(2, RoundingMode.HALF_EVEN);
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO account (accountID, creationDate, openBalance, balance,"
                    + " loginCount, logoutCount, lastLogin, profile_userID) VALUES (?, ?, ?, ?, 0, 0, ?, ?)")) {
                Timestamp now = now();
                ps.setLong(1, accountId);
                ps.setTimestamp(2, now);
                ps.setBigDecimal(3, open);
                ps.setBigDecimal(4, open);
                ps.setTimestamp(5, now);
                ps.setString(6, userId);
                ps.executeUpdate();
            }
            return TradeRows.account(c, userId);
        });
    }

    private Timestamp now() {
        return new Timestamp(wallMillis.getAsLong());
    }
}
