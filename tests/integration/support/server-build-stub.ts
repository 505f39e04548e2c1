// The API tests never render the console; the worker entry imports the server build lazily,
// so this stands in for React Router's virtual module inside the test runtime.
export default {};
