import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';

const users = [
  ['Ada Lovelace', 'ada.lovelace@example.com', 'admin'],
  ['Grace Hopper', 'grace.hopper@example.com', 'admin'],
  ['Alan Turing', 'alan.turing@example.com', 'analyst'],
  ['Katherine Johnson', 'katherine.johnson@example.com', 'analyst'],
  ['Edsger Dijkstra', 'edsger.dijkstra@example.com', 'engineer'],
  ['Barbara Liskov', 'barbara.liskov@example.com', 'engineer'],
  ['Donald Knuth', 'donald.knuth@example.com', 'engineer'],
  ['Margaret Hamilton', 'margaret.hamilton@example.com', 'support'],
] as const;

const customers = [
  ['Northwind Traders', 'Seattle', 'US'],
  ['Contoso Pharmaceuticals', 'Basel', 'CH'],
  ['Fabrikam Furniture', 'Lyon', 'FR'],
  ['Tailspin Toys', 'Manchester', 'GB'],
  ['Wide World Importers', 'Rotterdam', 'NL'],
  ['Adventure Works Cycles', 'Munich', 'DE'],
] as const;

const products = [
  ['Espresso machine', 'kitchen', 349.0],
  ['Burr grinder', 'kitchen', 129.5],
  ['Standing desk', 'office', 499.0],
  ['Ergonomic chair', 'office', 289.99],
  ['Noise-cancelling headphones', 'electronics', 199.0],
  ['4K monitor', 'electronics', 379.0],
  ['Mechanical keyboard', 'electronics', 119.0],
  ['Desk lamp', 'office', 45.25],
] as const;

/** What createSampleDatabase wrote. */
export interface SampleDatabaseSummary {
  file: string;
  tables: Record<'users' | 'customers' | 'products' | 'orders', number>;
}

/**
 * Writes a small company database (users, customers, products, orders with foreign keys) to `file`, for demos and
 * tests. The content is the same on every run; the file must not exist yet.
 */
export function createSampleDatabase(file: string): SampleDatabaseSummary {
  if (existsSync(file)) throw new Error(`${file} already exists; choose a new file for the sample database.`);
  const db = new Database(file);
  try {
    db.pragma('foreign_keys = ON');
    db.exec(`
      CREATE TABLE users (
        id INTEGER PRIMARY KEY,
        full_name TEXT NOT NULL,
        email TEXT NOT NULL UNIQUE,
        role TEXT NOT NULL CHECK (role IN ('admin', 'analyst', 'engineer', 'support')),
        created_at TEXT NOT NULL
      );
      CREATE TABLE customers (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        city TEXT NOT NULL,
        country TEXT NOT NULL,
        account_manager_id INTEGER REFERENCES users(id)
      );
      CREATE TABLE products (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        category TEXT NOT NULL,
        price REAL NOT NULL CHECK (price >= 0)
      );
      CREATE TABLE orders (
        id INTEGER PRIMARY KEY,
        customer_id INTEGER NOT NULL REFERENCES customers(id),
        product_id INTEGER NOT NULL REFERENCES products(id),
        quantity INTEGER NOT NULL CHECK (quantity > 0),
        ordered_at TEXT NOT NULL,
        status TEXT NOT NULL DEFAULT 'placed'
      );
      CREATE INDEX orders_customer ON orders(customer_id);
      CREATE INDEX orders_product ON orders(product_id);
    `);
    const insert = db.transaction(() => {
      const addUser = db.prepare('INSERT INTO users (full_name, email, role, created_at) VALUES (?, ?, ?, ?)');
      users.forEach(([name, email, role], index) => {
        addUser.run(name, email, role, `2024-0${1 + (index % 9)}-1${index % 10}T09:00:00Z`);
      });
      const addCustomer = db.prepare(
        'INSERT INTO customers (name, city, country, account_manager_id) VALUES (?, ?, ?, ?)',
      );
      customers.forEach(([name, city, country], index) => {
        addCustomer.run(name, city, country, 1 + ((index * 3) % users.length));
      });
      const addProduct = db.prepare('INSERT INTO products (name, category, price) VALUES (?, ?, ?)');
      for (const [name, category, price] of products) addProduct.run(name, category, price);
      const addOrder = db.prepare(
        'INSERT INTO orders (customer_id, product_id, quantity, ordered_at, status) VALUES (?, ?, ?, ?, ?)',
      );
      const statuses = ['placed', 'shipped', 'delivered', 'delivered', 'cancelled'];
      // A fixed linear congruential sequence keeps the orders identical on every run.
      let seed = 42;
      const next = (range: number) => {
        seed = (seed * 1103515245 + 12345) % 2147483648;
        return seed % range;
      };
      for (let index = 0; index < 40; index += 1) {
        const day = String(1 + next(28)).padStart(2, '0');
        const month = String(1 + next(12)).padStart(2, '0');
        addOrder.run(
          1 + next(customers.length),
          1 + next(products.length),
          1 + next(5),
          `2025-${month}-${day}T${String(8 + next(10)).padStart(2, '0')}:00:00Z`,
          statuses[next(statuses.length)],
        );
      }
    });
    insert();
  } finally {
    db.close();
  }
  return { file, tables: { users: users.length, customers: customers.length, products: products.length, orders: 40 } };
}
