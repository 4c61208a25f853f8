// Runs before every test file. Keeps test output readable: the app logs nothing unless a test asks.
process.env.NODE_ENV = "test";
